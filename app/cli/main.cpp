// scaleview-cli: ScaleView's statistics for headless machines and scripts.

#include "commands.h"
#include "version.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// The overview, then each command's own help (`scaleview-cli COMMAND --help` prints one).
const char* kOverview = R"(Usage:
  scaleview-cli summarize LOG_DIR [options]
  scaleview-cli plot LOG_DIR --chart throughput|speedup|efficiency --output FILE.png|FILE.svg [options]
  scaleview-cli run CAMPAIGN.json | run --topologies 1n1g,1n2g --batch-size B --out DIR [options]
  scaleview-cli resume DIR
  scaleview-cli preflight CAMPAIGN.json
  scaleview-cli references
  scaleview-cli formats
  scaleview-cli --version | --help

)";

struct CommandHelp {
    const char* name;
    const char* text;
};
const CommandHelp kCommands[] = {
    {"summarize",
     R"(summarize: read a DLPerf-layout log directory (logs/.../bz128/4n8g/r50_b128_fp32_3.log), compute
each run's throughput and each case's statistics, and compare them with the published tables.
A directory that holds (or sits up to 3 levels under) a ScaleView campaign.json is measured with
that campaign's warmup and iterations unless --warmup/--iterations say otherwise.
  --method time|speed     DLPerf method: time (default; timestamps of lines W*R and I*R) or
                          speed (median of each iteration's Speed values, mean over W..I-1);
                          with --format dlperf, DLPerf's *_time.py script or the other one
  --warmup N              iterations left out at the start (default: the DLPerf script's
                          default for each log's format, 20 for NGC MXNet; see 'formats')
  --iterations N          end of the measured window (default: likewise, 120 for NGC MXNet;
                          at most 1000000, also for plot)
  --log-format ID         read every log as this format (see 'formats'); default: each
                          log's format, detected from its first lines
  --format table|csv|json|dlperf
                          table (default): readable, per case; csv: a row per case;
                          json: runs, cases, references and options; dlperf: exactly the JSON
                          DLPerf's extract script for the logs' format writes (one format,
                          precision and batch size; notes on standard error)
  --output FILE           write there instead of standard output (replaced atomically)
  --reference ID[:SERIES] compare with this published table (see 'references'); default: the
                          table matching each case's precision and batch size
  --model M, --precision P, --batch-size N
                          only the runs of that model / precision / batch size per device
  --threads N             parallel readers (default: one per core, at least 2)
  --cv-threshold PCT      warn about a case whose repeats' CV is above PCT (default 5)
  --strict                exit 1 when any log was skipped, incomplete or unusable
  --quiet                 no warnings on standard error
)"},
    {"plot",
     R"(plot: draw the desktop app's chart for the first case group (model, precision, batch size) of
LOG_DIR, without a display.
  --chart throughput|speedup|efficiency
                          grouped bars with min-max whiskers (default), speedup against
                          GPUs with the ideal line, or scaling efficiency (GPUs on log2)
  --whisker minmax|ci95   the throughput bars' whisker: min-max of the repeats (default) or
                          the 95 % interval of the median
  --reference ID[:SERIES] overlay this published table; repeatable (default: the table
                          matching the group's precision and batch size)
  --output FILE           .png or .svg
  --size WxH              chart size in pixels (default 1200x800)
  --scale S               PNG pixel ratio, 0.5 to 4 (default 1; 2 is crisp on HiDPI)
  --method, --warmup, --iterations, --model, --precision, --batch-size, --threads
                          as for summarize
)"},
    {"run",
     R"(run: run a benchmark campaign (a CAMPAIGN.json, or these options), one run after another, each
log written as it arrives into DIR/logs/.../bz{B}/{N}n{G}g/r50_b{B}_{precision}_{repeat}.log,
with a journal (DIR/journal.jsonl) that resume reads. Ctrl-C or SIGTERM cancel cleanly.
  --profile P             local-cpu-rn50 (default: ResNet-50 v1.5, PyTorch, CPU, synthetic
                          data) or ngc-mxnet-rn50 (the seed's NGC MXNet runner), or a JSON file
  --topologies LIST       e.g. 1n1g,1n2g,2n8g       --batch-size LIST  per device, e.g. 16
  --precision LIST        fp32, fp16 (AMP), fp16-noamp (default fp32)
  --repeats N (7)  --iterations N (120)  --warmup N (20)  --cooldown SECONDS (20)
  --out DIR  --hosts H1[=ADDR],H2  --ssh-config FILE  --container NAME
  --launcher NAME         the profile's: mpirun (default), horovodrun, or torchrun (one per
                          node, for machines with PyTorch and no Open MPI)
  --start-timeout S (600)  --wall-timeout S (3600)  --grace S (5)  --connect-timeout S (10)
  --image-size PIXELS     the local profile's synthetic images (default 64)
  --dry-run               print every command exactly as it would run, one per line
)"},
    {"resume",
     R"(resume: rerun what a campaign in DIR has not finished (interrupted, cancelled, not started).
)"},
    {"preflight",
     R"(preflight: check hosts (ssh, container, GPUs or python3 + torch, launcher) in parallel.
)"},
    {"references", R"(references: list the published tables ScaleView compares against.
)"},
    {"formats",
     R"(formats: list the log formats ScaleView reads (ids for --log-format), each with its
framework, throughput unit, DLPerf extraction scripts and their default warmup and iterations.
)"}};

const char* kExitStatus =
    R"(Exit status: summarize and plot: 0 summary or chart produced (warnings go to standard error,
naming file and reason); 1 with --strict when anything was skipped or excluded; 2 usage error,
missing or unreadable directory, or nothing to summarize. run and resume: 0 every run ok, 1 some
run not ok or the campaign failed (its journal or a log could not be written: the reason is
printed), 2 usage or campaign error, 130 cancelled. preflight: 0 all checks passed, 1 some
failed, 2 usage error.
)";

const char* helpOf(const std::string& command) {
    for (const auto& c : kCommands)
        if (command == c.name) return c.text;
    return nullptr;
}

void printFullHelp(std::FILE* to) {
    std::fputs(kOverview, to);
    for (const auto& c : kCommands)
        std::fprintf(to, "\n%s", c.text);
    std::fprintf(to, "\n%s", kExitStatus);
}

} // namespace

int main(int argc, char** argv) {
    // A file size limit (ulimit -f) reached must be a write error (EFBIG) that the run reports
    // and records, not a signal that kills the CLI with its runs still going.
    std::signal(SIGXFSZ, SIG_IGN);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::fprintf(stderr, "%s\nscaleview-cli --help says more.\n", kOverview);
        return 2;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--help" || command == "-h" || command == "help") {
        if (!args.empty() && helpOf(args.front())) { // help COMMAND
            std::fputs(helpOf(args.front()), stdout);
            return 0;
        }
        printFullHelp(stdout);
        return 0;
    }
    if (command == "--version") {
        std::printf("%s\n", sv::cli::versionString().c_str());
        return 0;
    }
    if (helpOf(command) && (std::find(args.begin(), args.end(), "--help") != args.end() ||
                            std::find(args.begin(), args.end(), "-h") != args.end())) {
        std::fputs(helpOf(command), stdout);
        return 0;
    }
    if (command == "summarize") return sv::cli::summarizeCommand(args);
    if (command == "plot") return sv::cli::plotCommand(args);
    if (command == "references") return sv::cli::referencesCommand(args);
    if (command == "formats") return sv::cli::formatsCommand(args);
    if (command == "run") return sv::cli::runCommand(args);
    if (command == "resume") return sv::cli::resumeCommand(args);
    if (command == "preflight") return sv::cli::preflightCommand(args);
    std::fprintf(stderr,
                 "scaleview-cli: unknown command '%s' (commands: summarize, plot, run, resume, "
                 "preflight, references, formats; scaleview-cli --help says more)\n",
                 command.c_str());
    return 2;
}
