// scaleview-cli references: list the tables ScaleView compares with (published, the user's
// own, --reference-file), and `references save` to make a log directory one of them.

#include "app/cli/arguments.h"
#include "app/cli/measurearguments.h"
#include "app/cli/commands.h"
#include "app/cli/usercatalog.h"
#include "version.h"

#include "core/load/campaignwindow.h"
#include "core/report/referencetablewriter.h"
#include "core/stats/summary.h"
#include "core/model/outputtext.h"

#include <cstdio>
#include <ctime>

namespace sv::cli {
namespace {

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli references: %s\n(see scaleview-cli references --help)\n",
                 message.c_str());
    return 2;
}

int listTables(const std::vector<std::string>& files, bool quiet) {
    std::string error;
    const auto catalog = loadCatalog(files, quiet, &error);
    if (!catalog) {
        std::fprintf(stderr, "scaleview-cli references: %s\n", error.c_str());
        return 2;
    }
    for (const auto& t : catalog->tables()) {
        std::printf("%s\n  %s\n", t.id.c_str(), t.title.c_str());
        if (t.series.size() > 1)
            for (const auto& s : t.series)
                std::printf("  series: %s\n", s.name.c_str());
        std::printf("  source: %s\n", t.source.c_str());
        if (!t.method.empty()) {
            const bool repeats = !t.series.empty() && !t.primary()->repeats.empty();
            std::printf("  method: %s%s\n", t.method.c_str(),
                        repeats ? " (each run's figure: compared as a sample)" : "");
        }
        if (!t.origin.empty()) std::printf("  file: %s\n", t.origin.c_str());
    }
    return 0;
}

int saveTable(std::vector<std::string> argv) {
    Arguments args(argv, {"id", "title", "hardware", "method", "warmup", "iterations"}, {"quiet"});
    SummaryOptions options;
    LoadOptions load;
    const auto [warmup, iterations] = readMeasureArguments(args, &options.method);
    const auto id = args.value("id");
    if (!id)
        args.fail("--id is missing");
    else if (!isValidReferenceId(*id))
        args.fail("--id must be letters, digits, '.', '_' or '-' (up to 100), not '" + *id + "'");
    if (args.error()) return usageError(*args.error());
    if (args.positional().size() != 1)
        return usageError(args.positional().empty() ? "LOG_DIR is missing" : "one LOG_DIR, please");
    const std::string root = args.positional()[0];
    const bool quiet = args.flag("quiet");
    std::string error;
    const auto catalog = loadCatalog({}, quiet, &error);
    if (catalog && catalog->find(*id))
        return usageError("a table '" + *id + "' exists already (scaleview-cli references)");

    load.measure = seriesWindow(findCampaignWindow(root), warmup, iterations).measure;
    if (auto bad = validateMeasureOptions(load.measure)) return usageError(*bad);
    Summary s = summarizeDirectory(root, load, options);
    if (s.error) {
        std::fprintf(stderr, "scaleview-cli references save: %s\n", s.error->c_str());
        return 2;
    }
    if (!quiet)
        for (const auto& w : s.warnings)
            std::fprintf(stderr, "warning: %s\n", terminalText(w.text()).c_str());

    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    ReferenceTableInfo info;
    info.id = *id;
    info.title = args.value("title").value_or(*id);
    info.source = "saved by scaleview-cli " + std::string(SCALEVIEW_VERSION) + " from " +
                  std::filesystem::absolute(root).lexically_normal().string() + " on " + date;
    info.hardware = args.value("hardware").value_or("");
    const auto json = referenceTablesJson(s, info, &error);
    if (!json) {
        std::fprintf(stderr, "scaleview-cli references save: %s\n", error.c_str());
        return 2;
    }
    const auto dir = userReferenceDir();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const auto path = dir / (*id + ".json");
    if (!writeNewReferenceFile(path, *json, error)) {
        std::fprintf(stderr, "scaleview-cli references save: %s\n", error.c_str());
        return 2;
    }
    std::printf("%s\n", path.c_str());
    return 0;
}

} // namespace

int referencesCommand(const std::vector<std::string>& argvIn) {
    std::vector<std::string> argv = argvIn;
    if (!argv.empty() && argv.front() == "save") return saveTable({argv.begin() + 1, argv.end()});
    std::string error;
    const auto files = takeRepeated(argv, "reference-file", &error);
    if (!error.empty()) return usageError(error);
    Arguments args(argv, {}, {"quiet"});
    if (args.error()) return usageError(*args.error());
    if (!args.positional().empty())
        return usageError("unexpected '" + args.positional().front() +
                          "' (references [--reference-file FILE]... or references save LOG_DIR)");
    return listTables(files, args.flag("quiet"));
}

} // namespace sv::cli
