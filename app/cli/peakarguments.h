#pragma once
// The command line's say on percent of peak: --device (nvidia-smi's name of the runs' GPUs),
// --peak-tflops (a peak per device the user states: the only one a CPU run gets) and
// --peak-catalogue (a user's catalogue file, beside the one in the XDG data directory).

#include "app/cli/arguments.h"
#include "core/reference/devicecatalog.h"
#include "core/stats/summary.h"

#include <optional>
#include <string>

namespace sv::cli {

struct PeakRequest {
    std::optional<std::string> device;
    std::optional<double> peakTflops;
    DeviceCatalog catalog; // the built-in one, the user's file, --peak-catalogue
};

// The options' names, for Arguments' valued set.
inline const char* const kPeakOptions[] = {"device", "peak-tflops", "peak-catalogue"};

// Reads the three options into *req; a bad value or catalogue fails args (the file, the entry,
// the field and the reason).
void readPeakArguments(Arguments& args, PeakRequest* req);

// Each case's percent of peak: the device as the folder says it (core/compare/rundevice.h)
// unless --device names it. req must outlive summary (the options point into its catalogue).
void applyPeak(Summary& summary, const PeakRequest& req);

} // namespace sv::cli
