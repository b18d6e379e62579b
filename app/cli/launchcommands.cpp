// scaleview-cli run / resume / preflight: the launcher from a terminal or a script.

#include "app/cli/arguments.h"
#include "app/cli/campaignoptions.h"
#include "app/cli/commands.h"

#include "async/backgroundtask.h"
#include "core/report/report.h"
#include "launcher/campaign/adaptiverepeats.h"
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/exec/shellquote.h"
#include "launcher/monitor/environmentcapture.h"
#include "launcher/probe/caseprobes.h"
#include "launcher/probe/slownodecase.h"
#include "launcher/runner/runner.h"
#include "launcher/session/dryrun.h"
#include "launcher/session/preflight.h"
#include "launcher/session/terminationsignals.h"
#include "launcher/ssh/hostaddresses.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <sys/socket.h>
#include <unistd.h>

namespace sv::cli {
namespace {

using namespace sv::launcher;

int usage(const char* command, const std::string& message) {
    std::fprintf(stderr, "scaleview-cli %s: %s\n(see scaleview-cli --help)\n", command,
                 message.c_str());
    return 2;
}

std::string duration(double s) {
    if (s < 0) return "?";
    const long t = std::lround(s);
    char buf[32];
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    else
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    return buf;
}

class ConsoleProgress {
  public:
    explicit ConsoleProgress(Runner& runner) : m_tty(::isatty(1) == 1) {
        QObject::connect(&runner, &Runner::runStarted,
                         [this, &runner](int index, const QString& id, const QString&) {
                             m_lastTenth = -1;
                             std::printf("[%d/%zu] %s: started\n", index + 1, runner.runs().size(),
                                         id.toStdString().c_str());
                             std::fflush(stdout);
                         });
        QObject::connect(&runner, &Runner::progress, [this](const RunProgress& p) {
            char line[512];
            if (!p.queue.empty()) { // under Slurm, still waiting for its nodes
                std::snprintf(line, sizeof line, "[%d/%d] %s: Slurm job %s %s", p.index + 1,
                              p.total, p.id.c_str(), p.jobId.c_str(), p.queue.c_str());
                if (m_tty)
                    std::printf("\r\033[K%s", line);
                else if (p.queue != m_lastQueue)
                    std::printf("%s\n", line);
                m_lastQueue = p.queue;
                std::fflush(stdout);
                return;
            }
            m_lastQueue.clear();
            // Adaptive repeats: the campaign's ETA is a range, from every case stopping as soon
            // as it can to every case running to its maximum.
            std::string campaignEta = duration(p.campaignEtaSeconds);
            if (p.campaignEtaMaxSeconds > p.campaignEtaSeconds)
                campaignEta += "-" + duration(p.campaignEtaMaxSeconds);
            std::snprintf(
                line, sizeof line,
                "[%d/%d] %s: iteration %lld/%d, %.2f samples/s, run ETA %s, campaign ETA %s",
                p.index + 1, p.total, p.id.c_str(), static_cast<long long>(p.iteration),
                p.iterations, p.speed, duration(p.runEtaSeconds).c_str(), campaignEta.c_str());
            const int tenth =
                p.iterations > 0 ? static_cast<int>(p.iteration * 10 / p.iterations) : 0;
            if (m_tty) {
                std::printf("\r\033[K%s", line);
            } else if (tenth != m_lastTenth) {
                std::printf("%s\n", line);
            }
            m_lastTenth = tenth;
            std::fflush(stdout);
        });
        QObject::connect(
            &runner, &Runner::runFinished, [this, &runner](int index, const RunEnd& end) {
                if (m_tty) std::printf("\r\033[K");
                std::string figures;
                if (end.timeThroughput)
                    figures +=
                        ", " + formatFixed(*end.timeThroughput, 2) + " samples/s (time method)";
                const PlannedRun& run = runner.runs()[static_cast<std::size_t>(index)];
                std::printf("[%d/%zu] %s: %s%s%s%s\n", index + 1, runner.runs().size(),
                            run.id.c_str(), std::string(runStateName(end.state)).c_str(),
                            figures.c_str(), end.reason.empty() ? "" : " - ", end.reason.c_str());
                if (!end.advice.empty())
                    std::printf("[%d/%zu] %s: %s: %s\n", index + 1, runner.runs().size(),
                                run.id.c_str(), end.host.c_str(), end.advice.c_str());
                std::fflush(stdout);
            });
        QObject::connect(&runner, &Runner::message, [this](const QString& text) {
            if (m_tty) std::printf("\r\033[K");
            std::fprintf(stderr, "%s\n", text.toStdString().c_str());
        });
    }

  private:
    bool m_tty;
    int m_lastTenth = -1;
    std::string m_lastQueue;
};

// --find-slow-node: the search on a worker thread while app's event loop runs (SIGINT and
// SIGTERM stop its probes); the verdict printed with its evidence, recorded in probes.json and
// the journal. 0 when a verdict was reached, 1 when not.
int findSlowNode(QCoreApplication& app, const Campaign& campaign, const WorkloadProfile& profile,
                 std::optional<double> healthyPace, std::optional<double> thresholdPct) {
    const CommandBuilder builder(campaign, profile, workloadDirOf(campaign));
    const std::string dir = std::filesystem::absolute(campaign.outputDir).string();
    Journal journal((std::filesystem::path(dir) / "journal.jsonl").string());
    SlowNodeCase c =
        planSlowNodeSearch(builder, planRuns(campaign, profile), journal, dir, healthyPace);
    if (thresholdPct) c.search.thresholdPct = *thresholdPct;
    if (!c.error.empty()) {
        std::fprintf(stderr, "scaleview-cli find-slow-node: %s\n", c.error.c_str());
        return 1;
    }
    std::printf("find-slow-node: %s: %zu nodes, against %s samples/s per device (%s); slow: "
                "more than %s %% below\n",
                c.caseId.c_str(), c.fromSlurm ? std::size_t(c.nodeCount) : c.search.nodes.size(),
                formatFixed(c.search.healthyPace, 2).c_str(), c.search.healthySource.c_str(),
                formatFixed(c.search.thresholdPct, 0).c_str());
    std::fflush(stdout);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    TerminationSignals termination;
    QObject::connect(&termination, &TerminationSignals::received, [cancel] {
        std::fprintf(stderr, "\nscaleview-cli: stopping the slow-node probes\n");
        cancel->store(true);
    });
    SlowNodeVerdict verdict;
    // Under Slurm the nodes are an allocation's, known once it is held (in the search's
    // worker): each probe rank a job step on its node (--nodelist).
    async::runInBackground(
        &app,
        [search = c.search, cancel, nodeCount = c.nodeCount,
         slurm = c.fromSlurm ? std::optional<Campaign>(campaign) : std::nullopt]() mutable {
            if (!slurm) return sv::launcher::findSlowNode(search, cancel.get());
            char tag[40];
            std::snprintf(tag, sizeof tag, "svslow%016llx",
                          static_cast<unsigned long long>(QRandomGenerator::global()->generate64()));
            SlowNodeVerdict v;
            bool cancelled = false;
            const std::string error = withSlurmProbeNodes(
                *slurm, nodeCount, search.ranksPerNode, tag, search.timeoutMs, cancel.get(),
                &cancelled, [&](std::vector<ProbeNode> nodes) {
                    search.nodes = std::move(nodes);
                    v = sv::launcher::findSlowNode(search, cancel.get());
                });
            if (cancelled) v.why = "cancelled";
            if (!error.empty()) v.why += (v.why.empty() ? "" : "; ") + error + " (for the search)";
            return v;
        },
        [&](SlowNodeVerdict v) {
            verdict = std::move(v);
            app.quit();
        });
    app.exec();
    for (const auto& r : verdict.runs) {
        std::string names;
        for (const auto& n : r.nodes)
            names += (names.empty() ? "" : ", ") + n;
        std::printf("find-slow-node: probe run: %s %s: %s samples/s per device\n", names.c_str(),
                    r.together ? "together" : "each alone",
                    formatFixed(r.pacePerDevice, 2).c_str());
    }
    std::string named;
    for (const auto& n : verdict.named)
        named += (named.empty() ? " " : ", ") + n;
    std::printf("find-slow-node: %s%s: %s\n", verdict.kindName(), named.c_str(),
                verdict.why.c_str());
    if (const auto error = recordSlowNodeVerdict(c, verdict, dir, journal); !error.empty())
        std::fprintf(stderr, "scaleview-cli find-slow-node: %s\n", error.c_str());
    return verdict.kind == SlowNodeVerdict::Kind::Failed ? 1 : 0;
}

int execute(Campaign campaign, bool resume, bool slowNode = false,
            std::optional<double> healthyPace = std::nullopt,
            std::optional<double> thresholdPct = std::nullopt) {
    std::string error;
    auto profile = loadProfile(campaign.profile, &error);
    if (!profile) return usage(resume ? "resume" : "run", error);
    int argc = 1;
    char name[] = "scaleview-cli";
    char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    Runner runner(campaign, *profile);
    if (!runner.prepare(resume, &error)) return usage(resume ? "resume" : "run", error);
    std::printf("%s: %zu runs of %s into %s (journal %s)\n", profile->label.c_str(),
                runner.runs().size(), profile->name.c_str(), campaign.outputDir.c_str(),
                runner.journalPath().c_str());
    if (campaign.adaptive())
        std::printf("adaptive repeats: each case %d to %d repeats, until the median's 95 %% "
                    "interval is within ±%s %% (disturbed or failed runs rerun, up to %d per "
                    "case)\n",
                    campaign.repeats, campaign.maxRepeats(),
                    formatPct(campaign.targetCiPct).c_str(), campaign.rerunLimit);

    // SIGINT, SIGTERM and SIGHUP cancel in the event loop, never a sudden exit.
    TerminationSignals termination;
    bool cancelled = false;
    QObject::connect(&termination, &TerminationSignals::received, [&] {
        if (!cancelled)
            std::fprintf(stderr,
                         "\nscaleview-cli: cancelling (TERM, grace, KILL; the journal is kept)\n");
        cancelled = true;
        runner.cancel();
    });

    ConsoleProgress console(runner);
    CampaignEnd end;
    QObject::connect(&runner, &Runner::finished, [&](const CampaignEnd& e) {
        end = e;
        app.quit();
    });
    std::printf("capturing the environment (hosts, GPUs, versions)...\n");
    std::fflush(stdout);
    EnvironmentCapture::run(campaign, *profile, versionString(), &runner,
                            [&](const EnvironmentCapture::Result& captured) {
                                for (const auto& p : captured.problems)
                                    std::fprintf(stderr, "%s\n", p.c_str());
                                runner.start();
                            });
    app.exec();

    int ok = 0, notOk = 0;
    for (std::size_t i = 0; i < runner.runs().size(); ++i)
        (runner.state(static_cast<int>(i)) == RunState::Ok ? ok : notOk)++;
    std::printf("%d of %zu runs ok; logs under %s; 'scaleview-cli summarize %s' reads them\n", ok,
                runner.runs().size(), campaign.outputDir.c_str(), campaign.outputDir.c_str());
    // A campaign that had every run's turn goes into the history (a cancelled or failed one
    // would stand for less than it is; its resume records it).
    if (!end.failed() && !end.cancelled() && ok > 0) recordInHistory(campaign.outputDir);
    if (slowNode && !end.cancelled() && findSlowNode(app, campaign, *profile, healthyPace, thresholdPct) != 0)
        ++notOk;
    if (end.failed()) {
        std::fprintf(stderr, "scaleview-cli %s: the campaign failed: %s\n",
                     resume ? "resume" : "run", end.reason.c_str());
        return 1;
    }
    if (end.cancelled()) return 130;
    return notOk ? 1 : 0;
}

} // namespace

namespace {

std::optional<double> positiveNumber(const std::string& text) {
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && v > 0 && std::isfinite(v)) return v;
    } catch (...) {
    }
    return std::nullopt;
}

// --healthy-pace X and --slow-threshold PCT (below 100): 0, or usage's exit code.
int slowNodeOptions(const Arguments& a, const char* command, std::optional<double>& pace,
                    std::optional<double>& threshold) {
    if (auto v = a.value("healthy-pace"); v && !(pace = positiveNumber(*v)))
        return usage(command, "--healthy-pace: '" + *v + "' is not samples/s above 0");
    if (auto v = a.value("slow-threshold");
        v && (!(threshold = positiveNumber(*v)) || *threshold >= 100))
        return usage(command, "--slow-threshold: '" + *v + "' is not a percentage from 0 to 100");
    return 0;
}

// The campaign run was given: a campaign file, or the options (nullopt with *error).
std::optional<Campaign> campaignToRun(Arguments& a, std::string* error) {
    if (a.positional().size() == 1) {
        // A campaign file's relative outputDir is beside the file, as when the GUI opens it.
        const auto opened = CampaignDirectory::open(a.positional()[0]);
        if (!opened.ok()) {
            *error = opened.error();
            return std::nullopt;
        }
        Campaign c = opened.campaign();
        if (!applyProbeOptions(a, c, error)) return std::nullopt;
        return c;
    }
    return campaignFromOptions(a, error);
}

// --dry-run: every command line the campaign would run, none run.
int dryRun(const Campaign& campaign) {
    // Rendezvous addresses as the run resolves them (an ssh_config alias's HostName).
    std::vector<std::string> rendezvous;
    if (!campaign.hosts.empty()) {
        int argc = 1;
        char name[] = "scaleview-cli";
        char* argv[] = {name, nullptr};
        QCoreApplication app(argc, argv);
        resolveHostAddresses(campaign, &app, [&](HostAddresses resolved) {
            for (const auto& p : resolved.problems)
                std::fprintf(stderr, "scaleview-cli run: %s\n", p.c_str());
            rendezvous = std::move(resolved.addresses);
            app.quit();
        });
        app.exec();
    }
    // The tag is drawn per run when it starts; everything else is exactly what runs.
    std::string error;
    const auto lines = dryRunLines(campaign, &error, std::move(rendezvous));
    if (lines.empty()) return usage("run", error);
    for (const auto& line : lines)
        std::printf("%s\n", line.c_str());
    return 0;
}

} // namespace

int runCommand(const std::vector<std::string>& args) {
    Arguments a(args, campaignValueOptions(), campaignFlagOptions());
    if (a.error()) return usage("run", *a.error());
    if (a.positional().size() > 1) return usage("run", "give one CAMPAIGN.json, or options");
    std::string error;
    const std::optional<Campaign> campaign = campaignToRun(a, &error);
    if (!campaign) return usage("run", error);
    const auto problems = campaign->validate();
    if (!problems.empty()) {
        for (const auto& p : problems)
            std::fprintf(stderr, "scaleview-cli run: %s\n", p.c_str());
        return 2;
    }
    if (a.flag("dry-run")) return dryRun(*campaign);
    std::optional<double> pace, threshold;
    if (const int why = slowNodeOptions(a, "run", pace, threshold)) return why;
    if ((pace || threshold) && !a.flag("find-slow-node"))
        return usage("run", "--healthy-pace and --slow-threshold are for --find-slow-node");
    return execute(*campaign, false, a.flag("find-slow-node"), pace, threshold);
}

int resumeCommand(const std::vector<std::string>& args) {
    Arguments a(args, {}, {});
    if (a.error()) return usage("resume", *a.error());
    if (a.positional().size() != 1)
        return usage("resume", "give the campaign's output directory (or its campaign.json)");
    // DIR or DIR/campaign.json: the campaign is that directory, even if it has moved since.
    const auto opened = CampaignDirectory::open(a.positional()[0]);
    if (!opened.ok()) return usage("resume", opened.error());
    if (!opened.isOwnDirectory())
        return usage("resume", opened.file() + " is not the campaign.json of a campaign directory");
    if (!opened.movedFrom().empty())
        std::fprintf(stderr,
                     "scaleview-cli resume: campaign.json names %s; the campaign is now %s, and "
                     "runs there\n",
                     opened.movedFrom().c_str(), opened.directory().c_str());
    return execute(opened.campaign(), true);
}

int findSlowNodeCommand(const std::vector<std::string>& args) {
    Arguments a(args, {"healthy-pace", "slow-threshold"}, {});
    if (a.error()) return usage("find-slow-node", *a.error());
    if (a.positional().size() != 1)
        return usage("find-slow-node", "give the campaign's output directory (or its campaign.json)");
    std::optional<double> pace, threshold;
    if (const int why = slowNodeOptions(a, "find-slow-node", pace, threshold)) return why;
    const auto opened = CampaignDirectory::open(a.positional()[0]);
    if (!opened.ok()) return usage("find-slow-node", opened.error());
    std::string error;
    auto profile = loadProfile(opened.campaign().profile, &error);
    if (!profile) return usage("find-slow-node", error);
    int argc = 1;
    char name[] = "scaleview-cli";
    char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    return findSlowNode(app, opened.campaign(), *profile, pace, threshold);
}

int preflightCommand(const std::vector<std::string>& args) {
    Arguments a(args, {}, {});
    if (a.error()) return usage("preflight", *a.error());
    if (a.positional().size() != 1) return usage("preflight", "give one CAMPAIGN.json");
    std::string error;
    const auto opened = CampaignDirectory::open(a.positional()[0]);
    if (!opened.ok()) return usage("preflight", opened.error());
    const std::optional<Campaign> campaign = opened.campaign();
    const auto problems = campaign->validate();
    if (!problems.empty()) {
        for (const auto& p : problems)
            std::fprintf(stderr, "scaleview-cli preflight: %s\n", p.c_str());
        return 2;
    }
    auto profile = loadProfile(campaign->profile, &error);
    if (!profile) return usage("preflight", error);
    int argc = 1;
    char name[] = "scaleview-cli";
    char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    int failures = 0;
    Preflight::run(*campaign, *profile, &app, [&](std::vector<PreflightFinding> findings) {
        for (const auto& f : findings) {
            std::printf("%-4s %s: %s: %s\n",
                        !f.ok       ? "FAIL"
                        : f.warning ? "warn"
                                    : "ok",
                        f.host.c_str(), f.check.c_str(), f.message.c_str());
            failures += f.ok ? 0 : 1;
        }
        // The worst of the lines above, last, where the eye lands.
        std::printf("%s\n", preflightHeadline(findings).text.c_str());
        app.quit();
    });
    app.exec();
    return failures ? 1 : 0;
}

} // namespace sv::cli
