// scaleview-cli predict DIR --topologies 8n8g,16n8g: the next topologies from the measured ones,
// each with its interval and the backtest it rests on (docs/prediction.md).

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "app/cli/measurearguments.h"
#include "app/cli/seriesdirectory.h"
#include "core/model/runkey.h"
#include "core/report/predictionreport.h"
#include "core/stats/casepredictions.h"
#include "core/stats/predictionbacktest.h"
#include "core/stats/probelinkspeed.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace sv::cli {

namespace {

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli predict: %s\n(see scaleview-cli predict --help)\n",
                 message.c_str());
    return 2;
}

// "8n8g,16n8g" (or "8n" for the measured devices per node) into *out; false with *why.
bool readTopologies(const std::string& text, std::vector<Topology>* out, std::string* why) {
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.size() > 1 && item.back() == 'n' &&
            item.find_first_not_of("0123456789") == item.size() - 1) {
            out->push_back(Topology{std::atoi(item.c_str()), 0});
            continue;
        }
        auto t = parseTopology(item);
        if (!t) {
            *why = "--topologies: '" + item + "' is not a topology like 8n8g";
            return false;
        }
        out->push_back(*t);
    }
    if (out->empty()) *why = "--topologies is empty";
    return !out->empty();
}

} // namespace

int predictCommand(const std::vector<std::string>& argv) {
    Arguments args(argv, {"topologies", "link-gbps", "format", "method", "warmup", "iterations"},
                   {"quiet", "backtest"});
    if (args.flag("backtest") && !args.error()) {
        std::fputs(formatBacktestTable(builtinBacktest()).c_str(), stdout);
        return 0;
    }
    SummaryOptions options;
    LoadOptions load;
    const auto window = readMeasureArguments(args, &options.method, &load);
    PredictOptions predict;
    std::string why;
    if (auto t = args.value("topologies")) {
        if (!readTopologies(*t, &predict.targets, &why)) args.fail(why);
    } else {
        args.fail("--topologies is missing (e.g. --topologies 8n8g,16n8g)");
    }
    if (auto l = args.value("link-gbps")) {
        char* end = nullptr;
        const double v = std::strtod(l->c_str(), &end);
        if (l->empty() || *end != '\0' || !std::isfinite(v) || v <= 0.0)
            args.fail("--link-gbps must be a positive number of Gbit/s, not '" + *l + "'");
        predict.linkBytesPerSecond = v * 1e9 / 8;
        predict.linkSource = "--link-gbps";
    }
    const std::string format = args.value("format").value_or("table");
    if (format != "table" && format != "json")
        args.fail("--format must be table or json, not '" + format + "'");
    if (args.error()) return usageError(*args.error());
    if (args.positional().size() != 1) return usageError("predict takes one LOG_DIR");
    auto read = readSeriesDirectory(args.positional()[0], load, options, window, args.flag("quiet"),
                                    "predict");
    if (read.usage) return usageError(*read.usage);
    if (!read.summary) return 2;
    // The link the campaign's probes measured, before the one its multi-node cases imply; the
    // user's --link-gbps before both.
    if (!predict.linkBytesPerSecond)
        if (const auto link = probeLinkSpeed(readCampaignProbes(read.summary->root))) {
            predict.linkBytesPerSecond = link->bytesPerSecond;
            predict.linkSource = link->source;
        }
    const auto predictions = predictCases(read.summary->cases, predict);
    const std::string text =
        format == "json" ? formatPredictionJson(predictions) : formatPredictionTable(predictions);
    std::fputs(text.c_str(), stdout);
    return 0;
}

} // namespace sv::cli
