// scaleview-cli history: the history of campaigns, a local SQLite file or a team's PostgreSQL
// (--history-db postgresql://...). `history record DIR...` adds directories; `history` prints
// each case's median over time with each campaign's min-max, what changed and where it stepped,
// and flags a regression of the latest campaign (exit 1 with --fail-on-regression, the false
// discovery rate controlled over the cases); `history expect` marks a verdict expected;
// `history import FILE` moves a SQLite history into the one named.

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "app/cli/measurearguments.h"

#include "history/bundlecampaign.h"
#include "launcher/session/campaignbundle.h"
#include "history/campaignrecord.h"
#include "history/historydatabase.h"
#include "history/historyformat.h"
#include "history/historyimport.h"
#include "history/historytrend.h"
#include "core/model/outputtext.h"
#include "version.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>
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

// Opens the history; a database set aside (a corrupt one, by a command that records) is said,
// even under --quiet: a history never changes silently.
bool open(const HistoryDatabase& db) {
    if (!db.setAsideNotice().empty())
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
    if (!open(db)) return 2;
    int status = 0;
    for (const auto& dir : dirs) {
        const history::CampaignReading read = history::readCampaign(dir, method);
        if (!quiet)
            for (const auto& w : read.warnings)
                std::fprintf(stderr, "warning: %s: %s\n", terminalText(dir).c_str(),
                             terminalText(w).c_str());
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

// history import NAME.svbundle: another site's campaign, verified, with where it came from.
int importBundle(Arguments& args, const std::string& bundle) {
    auto app = ensureApplication();
    const std::filesystem::path allowed = args.value("allowed-signers").value_or("");
    const history::CampaignReading read = history::readBundleCampaign(
        bundle, SCALEVIEW_VERSION,
        [&allowed](const std::string& manifest, const std::string& signature, std::string* why) {
            return bundleSigner(manifest, signature, allowed, why);
        });
    if (!args.flag("quiet"))
        for (const auto& w : read.warnings)
            std::fprintf(stderr, "warning: %s: %s\n", terminalText(bundle).c_str(),
                         terminalText(w).c_str());
    if (!read.record) {
        std::fprintf(stderr, "scaleview-cli history import: %s\n",
                     terminalText(read.error).c_str());
        return 2;
    }
    HistoryDatabase db(databasePath(args));
    if (!open(db)) return 2;
    const auto result = db.record(*read.record);
    const bool failed = result.outcome == HistoryDatabase::Outcome::Failed;
    const history::CampaignOrigin& o = *read.record->origin;
    std::fprintf(
        failed ? stderr : stdout, "%s (bundled by %s on %s%s)\n",
        terminalText(result.message).c_str(), terminalText(o.bundledBy).c_str(),
        terminalText(o.bundledAt).c_str(),
        terminalText(o.signatureKey.empty() ? "" : ", signed with " + o.signatureKey).c_str());
    return failed ? 2 : 0;
}

int importCommand(Arguments& args) {
    if (args.positional().size() == 2 && args.positional()[1].size() > 9 &&
        args.positional()[1].ends_with(".svbundle"))
        return importBundle(args, args.positional()[1]);
    if (args.positional().size() != 2)
        return usageError("history import needs one SQLite history file (history import FILE "
                          "--history-db postgresql://...)");
    if (args.error()) return usageError(*args.error());
    const std::string from = args.positional()[1];
    const history::HistoryLocation source = history::parseHistoryLocation(from);
    if (source.kind == history::HistoryLocation::Kind::Invalid) return usageError(source.error);
    if (source.kind == history::HistoryLocation::Kind::SQLite &&
        !std::filesystem::is_regular_file(source.file))
        return usageError(from + ": no such history file");
    auto app = ensureApplication();
    // The source is only read: SQLite's read-only mode, never created, migrated or set aside.
    HistoryDatabase in(from, HistoryDatabase::Access::Source);
    if (!open(in)) return 2;
    const std::filesystem::path into = databasePath(args);
    std::error_code ec;
    if (into == in.path() || std::filesystem::equivalent(into, source.file, ec))
        return usageError("the history to import is the one named by --history-db");
    HistoryDatabase db(into);
    if (!open(db)) return 2;
    const history::ImportResult r = history::HistoryImport(in).into(db);
    for (const auto& m : r.messages)
        std::fprintf(stderr, "scaleview-cli history import: %s\n", m.c_str());
    std::printf("imported %s into %s: %d campaign%s added, %d already there, %d failed\n",
                in.path().string().c_str(), db.path().string().c_str(), r.added,
                r.added == 1 ? "" : "s", r.alreadyThere, r.failed);
    return r.failed > 0 ? 2 : 0;
}

int expectCommand(Arguments& args) {
    const std::string caseText = args.value("case").value_or("");
    const std::string campaign = args.value("campaign").value_or("");
    const std::string why = args.value("why").value_or("");
    if (args.positional().size() != 1) args.fail("history expect takes no other arguments");
    if (caseText.empty() || campaign.empty() || why.empty())
        args.fail("history expect needs --case CASE --campaign ID --why \"...\"");
    if (args.error()) return usageError(*args.error());
    auto app = ensureApplication();
    HistoryDatabase db(databasePath(args));
    if (!open(db)) return 2;
    std::string error;
    const auto campaigns = db.campaigns(&error);
    if (!campaigns) {
        std::fprintf(stderr, "scaleview-cli history: %s\n", error.c_str());
        return 2;
    }
    // The campaign: its label, or its identity or a prefix of it (six characters at least).
    std::vector<const history::StoredCampaign*> found;
    for (const auto& s : *campaigns)
        if (s.record.label == campaign ||
            (campaign.size() >= 6 && s.record.identity.rfind(campaign, 0) == 0))
            found.push_back(&s);
    if (found.size() != 1)
        return usageError(found.empty()
                              ? "no campaign in the history is '" + campaign + "'"
                              : "'" + campaign + "' names " + std::to_string(found.size()) +
                                    " campaigns; give more of its identity");
    const history::CampaignRecord& c = found.front()->record;
    // The case: its full name ("r50 fp32 bs64 1n2g"), or a topology that is one case there.
    std::vector<const history::CaseRecord*> cases;
    for (const auto& k : c.cases)
        if (history::caseName(k.key) == caseText || k.key.topology.name() == caseText)
            cases.push_back(&k);
    if (cases.size() != 1) {
        std::string names;
        for (const auto& k : c.cases)
            names += (names.empty() ? "" : ", ") + history::caseName(k.key);
        return usageError((cases.empty() ? "campaign " + c.label + " has no case '" + caseText
                                         : "'" + caseText + "' is several cases in " + c.label) +
                          "'; its cases: " + names);
    }
    const std::string key = history::caseKeyText(cases.front()->key, c.method);
    const std::string who = history::whoAmI();
    if (const std::string failed = db.expect({key, c.identity, who, why, {}}); !failed.empty()) {
        std::fprintf(stderr, "scaleview-cli history expect: %s\n", failed.c_str());
        return 2;
    }
    std::printf("marked %s in %s (%s) expected, by %s: %s\n",
                history::caseName(cases.front()->key).c_str(), c.label.c_str(),
                c.identity.substr(0, 12).c_str(), who.c_str(), why.c_str());
    return 0;
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
    Arguments args(argv,
                   {"case", "format", "threshold", "history-db", "method", "fdr", "campaign", "why",
                    "allowed-signers"},
                   {"fail-on-regression", "quiet"});
    if (!args.positional().empty() && args.positional().front() == "record")
        return recordCommand(args);
    if (!args.positional().empty() && args.positional().front() == "import")
        return importCommand(args);
    if (!args.positional().empty() && args.positional().front() == "expect")
        return expectCommand(args);
    if (!args.positional().empty())
        return usageError("unexpected '" + args.positional().front() +
                          "' (history, history record DIR..., history import FILE, or history "
                          "expect --case C --campaign ID --why TEXT)");
    if (args.value("campaign") || args.value("why"))
        args.fail("--campaign and --why are for history expect");
    if (args.value("method")) args.fail("--method is for history record");
    history::TrendOptions options;
    readThreshold(args, &options.thresholdPct);
    options.topology = args.value("case").value_or("");
    if (!options.topology.empty() && !parseTopology(options.topology))
        args.fail("--case must be a topology like 2n8g, not '" + options.topology + "'");
    if (const auto fdr = args.value("fdr")) {
        char* end = nullptr;
        options.fdr = std::strtod(fdr->c_str(), &end);
        if (end == fdr->c_str() || *end != '\0' || !(options.fdr > 0.0 && options.fdr < 1.0))
            args.fail("--fdr must be a rate between 0 and 1, like 0.05, not '" + *fdr + "'");
    }
    const std::string format = args.value("format").value_or("table");
    if (format != "table" && format != "csv" && format != "json")
        args.fail("--format must be table, csv or json, not '" + format + "'");
    if (args.error()) return usageError(*args.error());

    auto app = ensureApplication();
    // A read: nothing is created, migrated or set aside; a lock past the timeout is exit 2.
    HistoryDatabase db(databasePath(args), HistoryDatabase::Access::Read);
    if (!open(db)) return 2;
    std::string error;
    const auto campaigns = db.campaigns(&error);
    if (!campaigns) {
        std::fprintf(stderr, "scaleview-cli history: %s\n", error.c_str());
        return 2;
    }
    if (auto marks = db.expectations(&error))
        options.expectations = std::move(*marks);
    else {
        std::fprintf(stderr, "scaleview-cli history: %s\n", error.c_str());
        return 2;
    }
    const auto trends = history::computeTrends(*campaigns, options);
    std::string text;
    if (format == "table")
        text = history::formatTrendTable(trends, options.thresholdPct, options.fdr);
    else if (format == "csv")
        text = history::formatTrendCsv(trends);
    else
        text =
            history::formatTrendJson(trends, options.thresholdPct, db.path().string(), options.fdr);
    std::fwrite(text.data(), 1, text.size(), stdout);
    const history::CheckSummary check = history::summarizeCheck(trends, options.fdr);
    if (args.flag("fail-on-regression"))
        std::fprintf(stderr, "scaleview-cli history: %s\n", describeCheck(check).c_str());
    return check.regressions > 0 && args.flag("fail-on-regression") ? 1 : 0;
}

} // namespace sv::cli
