// scaleview-cli: ScaleView's statistics for headless machines and scripts.

#include "app/cli/commands.h"
#include "app/cli/userformats.h"
#include "version.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// The overview, then each command's own help (`scaleview-cli COMMAND --help` prints one).
const char* kOverview = R"(Usage:
  scaleview-cli summarize LOG_DIR | LOG_FILE... [options]
  scaleview-cli plot LOG_DIR --chart throughput|speedup|efficiency|loss --output FILE.png|FILE.svg [options]
  scaleview-cli run CAMPAIGN.json | run --topologies 1n1g,1n2g --batch-size B --out DIR [options]
  scaleview-cli resume DIR
  scaleview-cli preflight CAMPAIGN.json
  scaleview-cli compare A B [C...] [--label NAME]... [--format table|csv|json|markdown]
  scaleview-cli report LOG_DIR... --output report.html|report.md [--label NAME]...
  scaleview-cli predict LOG_DIR --topologies 8n8g,16n8g [--link-gbps G] [--format table|json]
  scaleview-cli references [--reference-file FILE]... | references save LOG_DIR --id ID
  scaleview-cli history [--fail-on-regression] | history record LOG_DIR... | history import|expect
  scaleview-cli nodes [--history-db X] [--format table|json]
  scaleview-cli bundle DIR -o NAME.svbundle | verify NAME.svbundle
  scaleview-cli formats | formats add FORMAT_FILE | formats test FORMAT_FILE LOG...
  scaleview-cli --version | --help

)";

struct CommandHelp {
    const char* name;
    const char* text;
};
const CommandHelp kCommands[] = {
    {"summarize",
     R"(summarize: read a log directory or single logs, compute each run's throughput and each case's
statistics, and compare them with the published tables. A DLPerf-layout file
(logs/.../bz128/4n8g/r50_b128_fp32_3.log) reads as DLPerf reads it; any other file, whatever its
name, is a run when its content is a throughput log (MLPerf/gluon-cv MXNet Speedometer, DLLogger,
gluon-nlp, tf_cnn_benchmarks, ...: see 'formats'), its model, batch, precision and GPUs taken
from the log's own parameter lines, then its path, then a scaleview.json in its folder. Such a
log's figure is its own reports' median after the first tenth (or reports W..I-1 of a window
given). Other files are counted in one line, not warned about.
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
  --reference ID[:SERIES] compare with this table (see 'references'); default: the table
                          matching each case's precision and batch size. The delta is by
                          the table's own method (the output says which); where the table
                          has each run's figure, also the ratio's 95 % interval and a verdict
  --reference-file FILE   also read the tables of FILE (repeatable)
  --model M, --precision P, --batch-size N
                          only the runs of that model / precision / batch size per device
  --threads N             parallel readers (default: one per core, at least 2)
  --cv-threshold PCT      warn about a case whose repeats' CV is above PCT (default 5)
  --exclude-disturbed     leave out the runs a campaign's monitor marked disturbed (default:
                          count them, and warn)
  --device NAME           the GPUs' name as nvidia-smi prints it, for each case's percent of
                          peak (default: scaleview.json's "device", else the captured
                          environment's; unknown: "peak unknown", with why)
  --peak-tflops T         a peak per device the user states (TFLOP/s): the only one the CPU
                          workload gets
  --peak-catalogue FILE   devices' peaks and models' FLOPs beside the built-in catalogue and
                          $XDG_DATA_HOME/scaleview/peak-catalogue.json (docs/percent-of-peak.md)
  --strict                exit 1 when any log was skipped, incomplete or unusable
  --quiet                 no warnings on standard error
)"},
    {"plot",
     R"(plot: draw the desktop app's chart for the first case group (model, precision, batch size) of
LOG_DIR, without a display.
  --chart throughput|speedup|efficiency|loss
                          grouped bars with min-max whiskers (default), speedup against
                          GPUs with the ideal line, scaling efficiency (GPUs on log2), or
                          where the scaling goes: one bar per multi-GPU case, the parts of
                          its loss the probes measured (probes.json), "not measured" else
  --whisker minmax|ci95   the throughput bars' whisker: min-max of the repeats (default) or
                          the 95 % interval of the median
  --reference ID[:SERIES] overlay this published table; repeatable (default: the table
                          matching the group's precision and batch size)
  --output FILE           .png or .svg
  --size WxH              chart size in pixels (default 1200x800)
  --scale S               PNG pixel ratio, 0.5 to 4 (default 1; 2 is crisp on HiDPI)
  --compare frameworks    one bar (throughput) or line (speedup) per framework of the group,
                          as the desktop app's Compare frameworks view (default: the first
                          group's framework alone)
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
  --repeats MIN..MAX --target-ci PCT
                          adaptive: each case runs MIN repeats, then one more at a time until
                          its median's 95 % interval is within +-PCT % (e.g. 2%) or MAX; runs
                          that are disturbed or not ok are rerun, not counted (--rerun-limit N,
                          default 3 per case; --count-disturbed counts disturbed runs, for a
                          machine that is never quiet); the journal says why each case stopped
  --out DIR  --hosts H1[=ADDR],H2  --ssh-config FILE
  --container NAME        run inside this running container (docker exec) on every host
  --container-image IMAGE start a container of IMAGE on every host, run inside it, remove it
  --container-mount SRC:DST[:ro]  a host directory in that container (repeatable)
  --container-keep        leave the started containers running at the end
  --docker PROGRAM        the docker client (default docker; DOCKER_HOST is honoured)
  --launcher NAME         the profile's: mpirun (default), horovodrun, or torchrun (one per
                          node, for machines with PyTorch and no Open MPI)
  --start-timeout S (600)  --wall-timeout S (3600)  --grace S (5)  --connect-timeout S (10)
  --image-size PIXELS     the local profile's synthetic images (default 64)
  --dry-run               print every command exactly as it would run, one per line
  --scheduler slurm       each run is one Slurm job (sbatch; srun with pmix and --label in it),
                          followed through the queue; the journal keeps its job id
  --slurm-partition P  --slurm-account A  --slurm-qos Q  --slurm-reservation R
  --slurm-constraint EXPR  --slurm-time LIMIT  --slurm-exclusive  --slurm-gpus
  --slurm-launch srun|mpirun   --slurm-sbatch-arg --OPTION[=VALUE]   (one; a file takes a list)
  --container-workdir DIR under Slurm, --container-image and --container-mount are pyxis'
                          (pyxis' image and mounts), and this its working directory
  --probes                before each multi-rank case's first repeat: each node alone and an
                          all-reduce of the gradient across its ranks, into DIR/probes.json
                          (summarize's scaling_loss); docs/scaling-loss.md
  --exclude-node HOST     leave HOST out of every topology (repeatable; under Slurm a node
                          name, given to Slurm as --exclude); --exclude-reason TEXT says why
                          (journal, campaign.json)
  --find-slow-node        after the campaign, probe runs on the widest multi-node case's nodes:
                          each alone, then together, until the slow ones are named (alone, or
                          through their link) or the slowness needs the interconnect
                          (--healthy-pace SAMPLES_PER_S where the campaign has no 1-node case
                          nor probes; --slow-threshold PCT, default 10); also: find-slow-node DIR
)"},
    {"resume",
     R"(resume: rerun what a campaign in DIR has not finished (interrupted, cancelled, not started).
)"},
    {"find-slow-node",
     R"(find-slow-node: in campaign DIR's widest multi-node case, probe runs: every node alone at once
(each node slow on its own is named), then, when only the nodes together are slow, node sets
together (a node slow through its link is named, or the slowness needs the interconnect);
recorded in DIR/probes.json and the journal. --healthy-pace SAMPLES_PER_S where DIR has neither
probes (--probes) nor a 1-node case to compare with; --slow-threshold PCT (default 10).
)"},
    {"preflight",
     R"(preflight: check hosts (ssh, container, GPUs or python3 + torch, launcher) in parallel.
)"},
    {"compare",
     R"(compare: read two or more log directories (or campaigns) as named series, and print per case
each series' median and, against the first series (A), the ratio of medians with its 95 %
bootstrap interval and a verdict: faster, slower, no measurable difference, only in A, only in B
(CSV, JSON and Markdown: faster, slower, no-difference, only-in-A, only-in-B). A change
is called only when the interval excludes 1 and the change is beyond the threshold.
  --label NAME            the next series' name (repeat, in order; default: the directory's)
  --format table|csv|json|markdown
                          table (default); json: {"series", "cases": [{"topology", "model",
                          "precision", "batch_size_per_device", "series", "ratio",
                          "ratio_ci95", "verdict", "comparisons"}]}
  --threshold PCT         the practical threshold (default 2)
  --reference ID[:SERIES] a reference table as the first series (A): every directory is
                          read by the table's method; its repeats, where it has them, make
                          the comparison a real A/B
  --reference-file FILE   also read the tables of FILE (repeatable)
  --method, --warmup, --iterations, --threads
                          as for summarize (a campaign's own window by default)
)"},
    {"references",
     R"(references: list the tables ScaleView compares with: the published ones (with the DLPerf
method each was computed by), the user's own in $XDG_DATA_HOME/scaleview/references
(~/.local/share/scaleview/references), and each --reference-file FILE (repeatable; also taken by
summarize and compare). A malformed table file is refused whole, naming the field and reason.
references save LOG_DIR --id ID [--title T] [--hardware H] [--method time|speed]
        [--warmup N] [--iterations N]
                          write LOG_DIR's cases as a table in the published tables' schema
                          (median, speedup, method, every repeat) to ID.json in that
                          directory; an existing file is never replaced
)"},
    {"bundle",
     R"(bundle: a campaign directory shared as one file another site can verify: a gzip-compressed
POSIX tar (open it by hand with tar xzf) holding every file under DIR exactly as written, the
summary (summarize --format json) with the method and window it used, and MANIFEST.json with each
file's size and SHA-256 (SHA256SUMS beside it: sha256sum -c SHA256SUMS). docs/sharing-campaigns.md
bundle DIR -o NAME.svbundle [options]
  -o, --output FILE       the bundle to write; never over a file already there
  --method time|speed     the results' method (default time)
  --warmup W --iterations I
                          the results' window (default: the campaign's, as for summarize)
  --log-format ID         read every log as this format (scaleview-cli formats lists them)
  --sign KEY              sign the manifest with this SSH private key (ssh-keygen -Y sign,
                          namespace scaleview-bundle; MANIFEST.json.sig in the bundle)
)"},
    {"verify",
     R"(verify: a bundle checked the whole way: read safely into a private temporary folder (paths
that leave it, links, devices, a decompression bomb, a truncated or future-version bundle are
refused with the reason), every file against the manifest, and every figure of its results
recomputed from its raw logs by the recorded method and window. Each difference is named.
verify NAME.svbundle [--allowed-signers FILE] [--quiet]
  --allowed-signers FILE  require a signature by a key this ssh-keygen allowed_signers file
                          names (without it, a signature is checked and its key said)
Exit status: 0 verified; 1 not verified (each difference on standard output); 2 refused, or usage.
)"},
    {"history",
     R"(history: the history of campaigns (SQLite, $XDG_DATA_HOME/scaleview/history.sqlite,
~/.local/share/..., or a team's PostgreSQL). Every campaign run finishes into it; history record
adds directories. Prints per case its median over time with each campaign's min-max and what
changed in the recorded environment, the campaigns where it stepped, and flags a regression when
the latest campaign's median is below every earlier campaign's min by more than the threshold
and its repeats' one-sided Welch test is a Benjamini-Hochberg discovery at --fdr over the cases.
history record LOG_DIR... [--method time|speed]
                          add each directory, once: the same logs (by content) are one entry
history import FILE       every campaign of the SQLite history FILE into --history-db's
history import NAME.svbundle
                          another site's campaign from its bundle, verified first (as verify
                          does, --allowed-signers too), with who bundled it, when, and its key
history expect --case C --campaign ID --why TEXT
                          mark case C's verdict in campaign ID (label or identity) expected,
                          with who ($USER) and why: it no longer fails --fail-on-regression
  --case TOPOLOGY         only that case's topology, e.g. 2n8g
  --format table|csv|json table (default); csv: a row per case per campaign; json: {"cases":
                          [{"topology", ..., "campaigns": [...], "regression", "note"}]}
  --threshold PCT         the practical threshold (default 2, as compare's)
  --fail-on-regression    exit 1 when a case is flagged (a nightly check's alert)
  --fdr Q                 the false discovery rate across the cases (default 0.05)
  --history-db FILE|URI   this database instead (also SCALEVIEW_HISTORY_DB; =off: a campaign
                          run records nothing): a file, or postgresql://[user@]host[:port]/db
                          [?sslmode=verify-full&...] (any libpq URI, or a keyword string
                          host=... dbname=...; passwords from ~/.pgpass, never given here)
  --quiet                 no warnings on standard error
A lock held by another program is waited for 5 s, then the command stops (exit 2) naming it; the
history is never moved for a lock. A file proven corrupt is renamed FILE.broken-<time> (kept) and a
new one started, only by a command that records, with a warning even under --quiet; reading
creates, migrates and moves nothing. history import opens FILE read-only and checks every row.
)"},
    {"nodes",
     R"(nodes: each node's health across the campaigns in the history. Campaigns run with probes
record each node's figures (probes.json: the node alone at its device count, its pace per
device). Lists the nodes, their latest pace, its trend against their own earlier campaigns (same
model, precision, batch and device count) and against the other nodes of their latest campaign,
and flags a node slower than its own history (below its median by more than the threshold and
three times its noise) or than its peers (below the other nodes' median by more than the peer
threshold), with the evidence in words.
  --format table|json     table (default); json: {"nodes": [{"node", "latest_pace_per_device",
                          "history", "trend_pct", "peer_pct", "flagged", "evidence"}], "flagged"}
  --threshold PCT         slower than its own median by more: flagged (default 5)
  --peer-threshold PCT    slower than its peers' median by more: flagged (default: --threshold)
  --fail-on-slow-node     exit 1 when a node is flagged
  --history-db FILE|URI   this database instead (also SCALEVIEW_HISTORY_DB)
)"},
    {"predict",
     R"(predict: the throughput of more nodes, from the cases measured: each iteration is the
single node's time at the same GPUs per node, plus a ring all-reduce of the gradient across the
nodes at the link speed, plus a residual fitted on the measured multi-node cases. Each
prediction carries a 95 % interval (the measured intervals carried through, widened to the
backtest's 90th-percentile error over the published tables) and says which backtest it rests
on. A case group with fewer than two multi-device cases, no single-node case at the GPUs per
node, no multi-node case or no link speed is refused with why (docs/prediction.md).
  --topologies LIST       the topologies to predict, e.g. 8n8g,16n8g (8n: the measured GPUs
                          per node)
  --link-gbps G           the inter-node link in Gbit/s; default: the one the campaign's
                          probes.json all-reduce measured, else implied by two or more
                          measured multi-node cases, else refused
  --format table|json     table (default) or {"predictions": [...], "refused": [...]}
  --backtest              print the backtest over the published tables and exit
  --method, --warmup, --iterations, --quiet
                          as for summarize
)"},
    {"formats",
     R"(formats: list the log formats ScaleView reads (ids for --log-format), each with its
framework, throughput unit, DLPerf extraction scripts and their default warmup and iterations,
then the user's own formats (files in $XDG_CONFIG_HOME/scaleview/formats, else
~/.config/scaleview/formats), each with its file.
formats add FORMAT_FILE [--replace]
                          check a format file (docs/user-formats.md) and keep it in that
                          directory as <id>.json: every command then reads its logs
formats test FORMAT_FILE LOG...
                          the lines of each LOG the format matches and the figure it gives
--format-file FILE        (summarize, compare, report, history) read logs with this format
                          file too; its logs are detected by content after the built-in formats
                          (--log-format ID forces it on every log); repeatable
A format file that is not right is refused naming the file, the JSON key and the reason (exit 2).
)"}};

const char* kExitStatus =
    R"(Exit status: summarize and plot: 0 summary or chart produced (warnings go to standard error,
naming file and reason); 1 with --strict when anything was skipped or excluded; 2 usage error,
missing or unreadable directory, or nothing to summarize. run and resume: 0 every run ok, 1 some
run not ok or the campaign failed (its journal or a log could not be written: the reason is
printed), 2 usage or campaign error, 130 cancelled. preflight: 0 all checks passed, 1 some
failed, 2 usage error. compare, report and references: 0 done, 2 usage error, unreadable directory or
malformed table file. history: 0 done, 1 a regression with --fail-on-regression, 2 usage error,
unusable database or directory. nodes: 0 done, 1 a node flagged with --fail-on-slow-node, 2
usage error or unusable database.
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
    // Users' format files: --format-file FILE and the config directory's, before logs are read.
    if (command == "summarize" || command == "compare" || command == "report" ||
        command == "history") {
        std::string error;
        if (!sv::cli::prepareUserFormats(args, &error)) {
            std::fprintf(stderr, "scaleview-cli %s: %s\n", command.c_str(), error.c_str());
            return 2;
        }
    }
    if (command == "summarize") return sv::cli::summarizeCommand(args);
    if (command == "plot") return sv::cli::plotCommand(args);
    if (command == "bundle") return sv::cli::bundleCommand(args);
    if (command == "verify") return sv::cli::verifyCommand(args);
    if (command == "compare") return sv::cli::compareCommand(args);
    if (command == "report") return sv::cli::reportCommand(args);
    if (command == "predict") return sv::cli::predictCommand(args);
    if (command == "references") return sv::cli::referencesCommand(args);
    if (command == "formats") return sv::cli::formatsCommand(args);
    if (command == "history") return sv::cli::historyCommand(args);
    if (command == "nodes") return sv::cli::nodesCommand(args);
    if (command == "run") return sv::cli::runCommand(args);
    if (command == "resume") return sv::cli::resumeCommand(args);
    if (command == "find-slow-node") return sv::cli::findSlowNodeCommand(args);
    if (command == "preflight") return sv::cli::preflightCommand(args);
    std::fprintf(
        stderr,
        "scaleview-cli: unknown command '%s' (commands: summarize, compare, report, predict, plot, "
        "run, resume, find-slow-node, preflight, references, history, nodes, formats, bundle, "
        "verify; "
        "scaleview-cli --help says "
        "more)\n",
        command.c_str());
    return 2;
}
