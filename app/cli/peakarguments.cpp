#include "app/cli/peakarguments.h"

#include "core/compare/rundevice.h"
#include "core/report/referencetablewriter.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace sv::cli {

void readPeakArguments(Arguments& args, PeakRequest* req) {
    req->catalog = DeviceCatalog::builtin();
    // $XDG_DATA_HOME/scaleview/peak-catalogue.json, beside the user's reference tables.
    const auto user =
        userReferenceDirectory(std::getenv("XDG_DATA_HOME"), std::getenv("HOME")).parent_path() /
        "peak-catalogue.json";
    std::error_code ec;
    std::string error;
    if (std::filesystem::exists(user, ec) && !req->catalog.addFile(user, &error)) args.fail(error);
    if (auto file = args.value("peak-catalogue"))
        if (!req->catalog.addFile(*file, &error)) args.fail("--peak-catalogue: " + error);
    req->device = args.value("device");
    if (auto p = args.value("peak-tflops")) {
        char* end = nullptr;
        const double v = std::strtod(p->c_str(), &end);
        if (p->empty() || *end != '\0' || !std::isfinite(v) || v <= 0.0)
            args.fail("--peak-tflops must be a positive number of TFLOP/s per device, not '" + *p +
                      "'");
        else
            req->peakTflops = v;
    }
}

void applyPeak(Summary& summary, const PeakRequest& req) {
    PeakOptions o = findRunDevice(summary);
    if (req.device) {
        o.device = *req.device;
        o.deviceSource = "--device";
        o.deviceUnknown.clear();
        o.cpu = false;
    }
    o.statedPeakTflops = req.peakTflops;
    o.catalog = &req.catalog;
    setPeak(summary, o);
}

} // namespace sv::cli
