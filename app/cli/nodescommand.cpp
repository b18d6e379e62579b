// scaleview-cli nodes: each node's health across the campaigns in the history (issue 28 item 3):
// its latest probe pace per device, its trend against its own earlier campaigns, and a flag when
// it got slower than its own history or than its peers in its latest campaign, with the
// evidence in words. Every campaign recorded with a probes.json carries its nodes' figures.

#include "app/cli/arguments.h"
#include "app/cli/commands.h"

#include "core/model/numerics.h"
#include "history/nodeverdict.h"
#include "history/historydatabase.h"
#include "history/nodehistory.h"
#include "core/model/jsontext.h"
#include "core/model/outputtext.h"
#include "core/model/wording.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace sv::cli {
namespace {

using history::HistoryDatabase;
using history::NodeHealth;

int usage(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli nodes: %s\n(see scaleview-cli nodes --help)\n",
                 message.c_str());
    return 2;
}

// A percentage option: a positive number.
void readPct(Arguments& args, const char* name, double* out) {
    const auto v = args.value(name);
    if (!v) return;
    char* end = nullptr;
    const double d = std::strtod(v->c_str(), &end);
    if (end == v->c_str() || *end != '\0' || !(d > 0.0 && d < 100.0))
        args.fail(std::string("--") + name + " must be a percentage between 0 and 100, not '" + *v +
                  "'");
    else
        *out = d;
}

nlohmann::json optionalJson(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::string formatJson(const std::vector<NodeHealth>& nodes, const history::NodeHealthOptions& o,
                       const std::string& db) {
    nlohmann::json j;
    j["history"] = db;
    j["thresholds"] = {{"own_pct", o.ownThresholdPct}, {"peer_pct", o.peerThresholdPct}};
    j["nodes"] = nlohmann::json::array();
    j["flagged"] = nlohmann::json::array();
    for (const NodeHealth& h : nodes) {
        nlohmann::json points = nlohmann::json::array();
        for (const auto& p : h.history)
            points.push_back({{"campaign", p.campaignLabel},
                              {"time", p.campaignTime},
                              {"pace_per_device", p.pace}});
        j["nodes"].push_back({{"node", h.node},
                              {"workload", h.workload},
                              {"latest_pace_per_device", h.latestPace},
                              {"latest_campaign", h.history.back().campaignLabel},
                              {"history", points},
                              {"own_median", optionalJson(h.ownMedian)},
                              {"own_noise_pct", optionalJson(h.ownNoisePct)},
                              {"trend_pct", optionalJson(h.trendPct)},
                              {"peer_median", optionalJson(h.peerMedian)},
                              {"peer_pct", optionalJson(h.peerPct)},
                              {"slower_than_itself", h.slowerThanItself},
                              {"slower_than_peers", h.slowerThanPeers},
                              {"faster_than_itself", history::fasterThanItself(h, o)},
                              {"faster_than_peers", history::fasterThanPeers(h, o)},
                              {"flagged", h.flagged()},
                              {"evidence", h.evidence}});
        if (h.flagged()) j["flagged"].push_back(h.node);
    }
    return jsonText(j, 2) + "\n";
}

std::string signedPct(const std::optional<double>& v) {
    if (!v) return "-";
    const std::string shown = formatShown(*v, 1); // never "-0.0"
    return (*v > 0 && shown != "0.0" ? "+" : "") + shown + " %";
}

std::string formatTable(const std::vector<NodeHealth>& nodes,
                        const history::NodeHealthOptions& options) {
    if (nodes.empty())
        return "No node probes in the history: campaigns run with probes record each node's "
               "figures (probes.json) when they are recorded.\n";
    char line[512];
    std::string out;
    std::snprintf(line, sizeof line, "%-16s %-28s %12s %10s %10s %9s  %s\n", "node", "workload",
                  "latest/dev", "vs own", "vs peers", "campaigns", "flag");
    out += line;
    int flagged = 0;
    for (const NodeHealth& h : nodes) {
        const char* flag = h.slowerThanItself && h.slowerThanPeers ? "SLOWER than itself and peers"
                           : h.slowerThanItself                    ? "SLOWER than itself"
                           : h.slowerThanPeers                     ? "SLOWER than peers"
                           // Far faster: no fault, but not "ok" (the others, or its setup).
                           : history::fasterThanPeers(h, options)
                               ? "faster than peers: check the others or its setup"
                           : history::fasterThanItself(h, options)
                               ? "faster than itself: check its setup"
                               : "ok";
        std::snprintf(line, sizeof line, "%-16s %-28s %12s %10s %10s %9zu  %s\n", h.node.c_str(),
                      h.workload.c_str(), formatFixed(h.latestPace, 2).c_str(),
                      signedPct(h.trendPct).c_str(), signedPct(h.peerPct).c_str(), h.history.size(),
                      flag);
        out += line;
        flagged += h.flagged() ? 1 : 0;
    }
    out += "\n";
    for (const NodeHealth& h : nodes)
        if (h.flagged()) out += h.node + ": " + h.evidence + "\n";
    out += std::to_string(flagged) + " of " +
           countOf(static_cast<long long>(nodes.size()), "node") + " flagged\n";
    // Node names and workloads come from the history: no escape sequence reaches the terminal.
    return terminalText(out);
}

} // namespace

int nodesCommand(const std::vector<std::string>& argv) {
    Arguments args(argv, {"format", "history-db", "threshold", "peer-threshold"},
                   {"fail-on-slow-node"});
    if (!args.positional().empty()) args.fail("unexpected '" + args.positional().front() + "'");
    history::NodeHealthOptions options;
    readPct(args, "threshold", &options.ownThresholdPct);
    options.peerThresholdPct = options.ownThresholdPct;
    readPct(args, "peer-threshold", &options.peerThresholdPct);
    const std::string format = args.value("format").value_or("table");
    if (format != "table" && format != "json")
        args.fail("--format must be table or json, not '" + format + "'");
    if (args.error()) return usage(*args.error());

    // Qt SQL loads its drivers as plugins, which need an application object.
    std::optional<QCoreApplication> app;
    static int argc = 1;
    static char name[] = "scaleview-cli";
    static char* appArgv[] = {name, nullptr};
    if (!QCoreApplication::instance()) app.emplace(argc, appArgv);
    const auto path = args.value("history-db") ? std::filesystem::path(*args.value("history-db"))
                                               : HistoryDatabase::defaultPath();
    // A read: nothing is created, migrated or set aside.
    HistoryDatabase db(path, HistoryDatabase::Access::Read);
    if (!db.isOpen()) return usage(db.error());
    std::string error;
    const auto observations = db.nodeObservations(&error);
    if (!observations) {
        std::fprintf(stderr, "scaleview-cli nodes: %s\n", error.c_str());
        return 2;
    }
    const auto nodes = history::nodeHealth(*observations, options);
    const std::string text = format == "json" ? formatJson(nodes, options, db.path().string())
                                              : formatTable(nodes, options);
    std::fwrite(text.data(), 1, text.size(), stdout);
    bool any = false;
    for (const auto& h : nodes)
        any = any || h.flagged();
    return any && args.flag("fail-on-slow-node") ? 1 : 0;
}

} // namespace sv::cli
