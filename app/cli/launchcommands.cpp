// scaleview-cli run / resume / find-slow-node / preflight: the launcher's campaign session from a
// terminal or a script. The session does the work; this file presents what it reports.

#include "app/cli/arguments.h"
#include "app/cli/campaignoptions.h"
#include "app/cli/commands.h"

#include "core/report/report.h"
#include "launcher/campaign/adaptiverepeats.h"
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/session/campaignsession.h"
#include "launcher/session/dryrun.h"
#include "launcher/session/preflight.h"
#include "launcher/session/slownodesession.h"
#include "launcher/session/terminationsignals.h"

#include <QCoreApplication>
#include <cmath>
#include <cstdio>
#include <memory>
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

// What a campaign session reports, as lines on a terminal (a progress line redrawn in place) or
// in a log (a line per tenth of a run).
class ConsoleProgress {
  public:
    explicit ConsoleProgress(CampaignSession& session) : m_tty(::isatty(1) == 1) {
        QObject::connect(&session, &CampaignSession::runStarted,
                         [this, &session](int index, const QString& id, const QString&) {
                             m_lastTenth = -1;
                             std::printf("[%d/%zu] %s: started\n", index + 1, session.runs().size(),
                                         id.toStdString().c_str());
                             std::fflush(stdout);
                         });
        QObject::connect(&session, &CampaignSession::progress, [this](const RunProgress& p) {
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
            &session, &CampaignSession::runFinished,
            [this, &session](int index, const RunEnd& end) {
                if (m_tty) std::printf("\r\033[K");
                std::string figures;
                if (end.timeThroughput)
                    figures +=
                        ", " + formatFixed(*end.timeThroughput, 2) + " samples/s (time method)";
                const PlannedRun& run = session.runs()[static_cast<std::size_t>(index)];
                std::printf("[%d/%zu] %s: %s%s%s%s\n", index + 1, session.runs().size(),
                            run.id.c_str(), std::string(runStateName(end.state)).c_str(),
                            figures.c_str(), end.reason.empty() ? "" : " - ", end.reason.c_str());
                if (!end.advice.empty())
                    std::printf("[%d/%zu] %s: %s: %s\n", index + 1, session.runs().size(),
                                run.id.c_str(), end.host.c_str(), end.advice.c_str());
                std::fflush(stdout);
            });
        QObject::connect(&session, &CampaignSession::message, [this](const QString& text) {
            if (m_tty) std::printf("\r\033[K");
            std::fprintf(stderr, "%s\n", text.toStdString().c_str());
        });
        QObject::connect(&session, &CampaignSession::note, [this](const QString& text) {
            if (m_tty) std::printf("\r\033[K");
            std::printf("%s\n", text.toStdString().c_str());
            std::fflush(stdout);
        });
    }

  private:
    bool m_tty;
    int m_lastTenth = -1;
    std::string m_lastQueue;
};

// The slow-node search's plan, as it starts.
void printSlowNodePlan(const SlowNodeCase& c) {
    std::printf("find-slow-node: %s: %zu nodes, against %s samples/s per device (%s); slow: "
                "more than %s %% below\n",
                c.caseId.c_str(), c.fromSlurm ? std::size_t(c.nodeCount) : c.search.nodes.size(),
                formatFixed(c.search.healthyPace, 2).c_str(), c.search.healthySource.c_str(),
                formatFixed(c.search.thresholdPct, 0).c_str());
    std::fflush(stdout);
}

// The verdict with its evidence; 0 when one was reached, 1 when not.
int printSlowNodeReport(const SlowNodeReport& report) {
    if (!report.plan.error.empty()) {
        std::fprintf(stderr, "scaleview-cli find-slow-node: %s\n", report.plan.error.c_str());
        return 1;
    }
    const SlowNodeVerdict& verdict = report.verdict;
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
    if (!report.recordError.empty())
        std::fprintf(stderr, "scaleview-cli find-slow-node: %s\n", report.recordError.c_str());
    return report.failed() ? 1 : 0;
}

// SIGINT, SIGTERM and SIGHUP stop the session in the event loop, never a sudden exit.
void cancelOnSignals(TerminationSignals& termination, CampaignSession& session) {
    QObject::connect(&termination, &TerminationSignals::received, [&session] {
        if (session.stage() == CampaignSession::Stage::SearchingSlowNode)
            std::fprintf(stderr, "\nscaleview-cli: stopping the slow-node probes\n");
        else if (!session.isCancelling())
            std::fprintf(stderr,
                         "\nscaleview-cli: cancelling (TERM, grace, KILL; the journal is kept)\n");
        session.cancel();
    });
}

// What the session says as it goes, as the command line says it.
void presentSession(CampaignSession& session) {
    QObject::connect(&session, &CampaignSession::prepared, [&session] {
        const Campaign& c = session.campaign();
        const WorkloadProfile& profile = session.profile();
        std::printf("%s: %zu runs of %s into %s (journal %s)\n", profile.label.c_str(),
                    session.runs().size(), profile.name.c_str(), c.outputDir.c_str(),
                    session.journalPath().c_str());
        if (c.adaptive())
            std::printf("adaptive repeats: each case %d to %d repeats, until the median's 95 %% "
                        "interval is within ±%s %% (disturbed or failed runs rerun, up to %d per "
                        "case)\n",
                        c.repeats, c.maxRepeats(), formatPct(c.targetCiPct).c_str(), c.rerunLimit);
    });
    QObject::connect(&session, &CampaignSession::capturingEnvironment, [] {
        std::printf("capturing the environment (hosts, GPUs, versions)...\n");
        std::fflush(stdout);
    });
    QObject::connect(&session, &CampaignSession::environmentCaptured,
                     [](int, const std::vector<std::string>& problems) {
                         for (const auto& p : problems)
                             std::fprintf(stderr, "%s\n", p.c_str());
                     });
    // Runs that ended ok while something else used their machines: the end line says how many,
    // as the app's banner does, live or reopened.
    auto disturbed = std::make_shared<int>(0);
    QObject::connect(&session, &CampaignSession::runFinished, [disturbed](int, const RunEnd& end) {
        *disturbed += end.state == RunState::Ok && end.isDisturbed();
    });
    QObject::connect(&session, &CampaignSession::runsEnded,
                     [&session, disturbed](const CampaignEnd&, int ok, int total) {
                         const std::string& out = session.campaign().outputDir;
                         std::string how;
                         if (*disturbed > 0)
                             how = *disturbed >= ok ? " (every one disturbed: their figures are "
                                                      "not reliable)"
                                                    : " (" + std::to_string(*disturbed) +
                                                          " disturbed: their figures are not "
                                                          "reliable)";
                         std::printf("%d of %d runs ok%s; logs under %s; 'scaleview-cli summarize "
                                     "%s' reads them\n",
                                     ok, total, how.c_str(), out.c_str(), out.c_str());
                     });
    QObject::connect(&session, &CampaignSession::slowNodePlanned, &printSlowNodePlan);
}

// run and resume: the campaign session, presented; the exit code from how it ended.
int execute(Campaign campaign, bool resume, std::optional<SlowNodeOptions> slowNode = {}) {
    const char* command = resume ? "resume" : "run";
    int argc = 1;
    char name[] = "scaleview-cli";
    char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    SessionOptions options;
    options.resume = resume;
    options.version = versionString();
    options.slowNode = slowNode;
    options.record = &recordInHistory;
    std::vector<std::string> refusal;
    const auto session = CampaignSession::create(std::move(campaign), options, &refusal);
    if (!session) {
        for (const auto& why : refusal)
            std::fprintf(stderr, "scaleview-cli %s: %s\n", command, why.c_str());
        return 2;
    }
    TerminationSignals termination;
    cancelOnSignals(termination, *session);
    ConsoleProgress console(*session);
    presentSession(*session);
    SessionEnd end;
    QObject::connect(session.get(), &CampaignSession::finished, [&](const SessionEnd& e) {
        end = e;
        app.quit();
    });
    session->start();
    app.exec();

    if (end.campaign.cancelled()) return 130;
    if (!end.prepared) return usage(command, end.campaign.reason);
    const bool searchFailed = end.slowNode && printSlowNodeReport(*end.slowNode) != 0;
    if (end.campaign.failed()) {
        std::fprintf(stderr, "scaleview-cli %s: the campaign failed: %s\n", command,
                     end.campaign.reason.c_str());
        return 1;
    }
    return end.ok < end.total || searchFailed ? 1 : 0;
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
int slowNodeOptions(const Arguments& a, const char* command, SlowNodeOptions& options) {
    if (auto v = a.value("healthy-pace"); v && !(options.healthyPace = positiveNumber(*v)))
        return usage(command, "--healthy-pace: '" + *v + "' is not samples/s above 0");
    if (auto v = a.value("slow-threshold");
        v && (!(options.thresholdPct = positiveNumber(*v)) || *options.thresholdPct >= 100))
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
    int argc = 1;
    char name[] = "scaleview-cli";
    char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    DryRun dry;
    resolveDryRun(campaign, &app, [&](DryRun answer) {
        dry = std::move(answer);
        app.quit();
    });
    app.exec();
    for (const auto& p : dry.notes)
        std::fprintf(stderr, "scaleview-cli run: %s\n", p.c_str());
    for (const auto& p : dry.refusal)
        std::fprintf(stderr, "scaleview-cli run: %s\n", p.c_str());
    if (!dry.refusal.empty()) return 2;
    for (const auto& line : dry.lines)
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
    if (a.flag("dry-run")) return dryRun(*campaign);
    SlowNodeOptions slow;
    if (const int why = slowNodeOptions(a, "run", slow)) return why;
    if ((slow.healthyPace || slow.thresholdPct) && !a.flag("find-slow-node"))
        return usage("run", "--healthy-pace and --slow-threshold are for --find-slow-node");
    return execute(*campaign, false, a.flag("find-slow-node") ? std::optional(slow) : std::nullopt);
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
        return usage("find-slow-node",
                     "give the campaign's output directory (or its campaign.json)");
    SlowNodeOptions options;
    if (const int why = slowNodeOptions(a, "find-slow-node", options)) return why;
    const auto opened = CampaignDirectory::open(a.positional()[0]);
    if (!opened.ok()) return usage("find-slow-node", opened.error());
    std::string error;
    auto profile = loadProfile(opened.campaign().profile, &error);
    if (!profile) return usage("find-slow-node", error);
    int argc = 1;
    char name[] = "scaleview-cli";
    char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    SlowNodeSession search;
    TerminationSignals termination;
    QObject::connect(&termination, &TerminationSignals::received, [&search] {
        std::fprintf(stderr, "\nscaleview-cli: stopping the slow-node probes\n");
        search.cancel();
    });
    QObject::connect(&search, &SlowNodeSession::planned, &printSlowNodePlan);
    SlowNodeReport report;
    QObject::connect(&search, &SlowNodeSession::finished, [&](const SlowNodeReport& r) {
        report = r;
        app.quit();
    });
    search.start(opened.campaign(), *profile, options);
    app.exec();
    return printSlowNodeReport(report);
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
