// scaleview-cli formats: the table of log formats, for --log-format and for DLPerf users who
// want to know which of DLPerf's scripts ScaleView's --format dlperf reproduces.

#include "app/cli/commands.h"

#include "core/parse/logformat.h"

#include <cstdio>
#include <string>

namespace sv::cli {

int formatsCommand(const std::vector<std::string>& argv) {
    if (!argv.empty()) {
        std::fprintf(stderr, "scaleview-cli formats: takes no arguments\n");
        return 2;
    }
    for (const LogFormat& f : logFormats()) {
        std::printf("%s\n  framework: %s; throughput in %s\n", std::string(f.id).c_str(),
                    std::string(f.framework).c_str(), std::string(f.unit).c_str());
        if (!f.speedScript.empty())
            std::printf("  --method speed: DLPerf %s\n", std::string(f.speedScript).c_str());
        if (!f.timeScript.empty())
            std::printf("  --method time: DLPerf %s\n", std::string(f.timeScript).c_str());
        std::printf("  defaults: warmup %d, iterations %d\n", f.defaultWarmup, f.defaultIterations);
    }
    return 0;
}

} // namespace sv::cli
