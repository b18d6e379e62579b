// scaleview-cli history: the local history of campaigns. `history record DIR...` adds
// directories; `history` prints each case's median over time with each campaign's min-max and
// flags a regression of the latest campaign (exit 1 with --fail-on-regression).

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "app/cli/measurearguments.h"

#include "history/campaignrecord.h"
#include "history/historydatabase.h"
#include "history/historyformat.h"
#include "history/historytrend.h"

#include <QCoreApplication>

#include <cstdio>
#include <optional>

namespace sv::cli {
namespace {

using history::HistoryDatabase;

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli history: %s\n(see scaleview-cli history --help)\n",
                 message.c_str());
    return 2;
}

// Qt SQL loads its SQLite driver as a plugin, which needs an application object.
std::optional<QCoreApplication> ensureApplication() {
    if (QCoreApplication::instance()) return std::nullopt;
    static int argc = 1;
    static char name[] = "scaleview-cli";
    static char* argv[] = {name, nullptr};
    return std::optional<QCoreApplication>(std::in_place, argc, argv);
}

std::filesystem::path databasePath(const Arguments& args) {
    if (auto p = args.value("history-db")) return *p;
    return HistoryDatabase::defaultPath();
}

// Opens the history; a database set aside is said, and the history goes on with a new one.
bool open(HistoryDatabase& db, bool quiet) {
    if (!db.setAsideNotice().empty() && !quiet)
        std::fprintf(stderr, "warning: %s\n", db.setAsideNotice().c_str());
    if (!db.isOpen()) {
        std::fprintf(stderr, "scaleview-cli history: %s\n", db.error().c_str());
        return false;
    }
    return true;
}

int recordCommand(Arguments& args) {
    Method method = Method::Time;
    readMeasureArguments(args, &method);
    if (args.error()) return usageError(*args.error());
    std::vector<std::string> dirs(args.positional().begin() + 1, args.positional().end());
    if (dirs.empty()) return usageError("history record needs one or more log directories");
    const bool quiet = args.flag("quiet");
    auto app = ensureApplication();
    HistoryDatabase db(databasePath(args));
    if (!open(db, quiet)) return 2;
    int status = 0;
    for (const auto& dir : dirs) {
        const history::CampaignReading read = history::readCampaign(dir, method);
        if (!quiet)
            for (const auto& w : read.warnings)
                std::fprintf(stderr, "warning: %s: %s\n", dir.c_str(), w.c_str());
        if (!read.record) {
            std::fprintf(stderr, "scaleview-cli history record: %s\n", read.error.c_str());
            status = 2;
            continue;
        }
        const auto result = db.record(*read.record);
        std::fprintf(result.outcome == HistoryDatabase::Outcome::Failed ? stderr : stdout, "%s\n",
                     result.message.c_str());
        if (result.outcome == HistoryDatabase::Outcome::Failed) status = 2;
    }
    return status;
}

} // namespace

void recordInHistory(const std::string& dir) {
    if (HistoryDatabase::off()) return;
    auto app = ensureApplication();
    HistoryDatabase db(HistoryDatabase::defaultPath());
    if (!db.setAsideNotice().empty())
        std::fprintf(stderr, "warning: %s\n", db.setAsideNotice().c_str());
    if (!db.isOpen()) {
        std::fprintf(stderr, "the campaign is not in the history: %s\n", db.error().c_str());
        return;
    }
    const history::CampaignReading read = history::readCampaign(dir);
    if (!read.record) {
        std::fprintf(stderr, "the campaign is not in the history: %s\n", read.error.c_str());
        return;
    }
    const auto result = db.record(*read.record);
    std::fprintf(result.outcome == HistoryDatabase::Outcome::Failed ? stderr : stdout,
                 "history: %s\n", result.message.c_str());
}

int historyCommand(const std::vector<std::string>& argv) {
    Arguments args(argv, {"case", "format", "threshold", "history-db", "method"},
                   {"fail-on-regression", "quiet"});
    if (!args.positional().empty() && args.positional().front() == "record")
        return recordCommand(args);
    if (!args.positional().empty())
        return usageError("unexpected '" + args.positional().front() +
                          "' (history, or history record DIR...)");
    if (args.value("method")) args.fail("--method is for history record");
    history::TrendOptions options;
    readThreshold(args, &options.thresholdPct);
    options.topology = args.value("case").value_or("");
    if (!options.topology.empty() && !parseTopology(options.topology))
        args.fail("--case must be a topology like 2n8g, not '" + options.topology + "'");
    const std::string format = args.value("format").value_or("table");
    if (format != "table" && format != "csv" && format != "json")
        args.fail("--format must be table, csv or json, not '" + format + "'");
    if (args.error()) return usageError(*args.error());

    auto app = ensureApplication();
    HistoryDatabase db(databasePath(args));
    if (!open(db, args.flag("quiet"))) return 2;
    std::string error;
    const auto campaigns = db.campaigns(&error);
    if (!campaigns) {
        std::fprintf(stderr, "scaleview-cli history: %s\n", error.c_str());
        return 2;
    }
    const auto trends = history::computeTrends(*campaigns, options);
    std::string text;
    if (format == "table")
        text = history::formatTrendTable(trends, options.thresholdPct);
    else if (format == "csv")
        text = history::formatTrendCsv(trends);
    else
        text = history::formatTrendJson(trends, options.thresholdPct, db.path().string());
    std::fwrite(text.data(), 1, text.size(), stdout);
    bool regression = false;
    for (const auto& t : trends)
        regression = regression || t.regression;
    return regression && args.flag("fail-on-regression") ? 1 : 0;
}

} // namespace sv::cli
