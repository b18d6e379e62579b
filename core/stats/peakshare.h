#pragma once
// How close to the hardware a figure is: percent of the devices' dense peak (PaLM's model FLOPs
// utilization), pct = throughput x FLOPs per sample / (devices x peak). Where the device, its
// peak or the model's FLOPs are unknown there is no figure, only why: never one from a guess.

#include "core/reference/devicecatalog.h"
#include "core/reference/referencecatalog.h"

#include <optional>
#include <string>
#include <string_view>

namespace sv {

// What the front end knows of the hardware the runs ran on (core/compare/rundevice.h finds it).
struct PeakOptions {
    std::string device;        // nvidia-smi's name ("Tesla V100-SXM2-16GB") or a catalogue id
    std::string deviceSource;  // where it was read: "--device", "scaleview.json", "nvidia-smi, ..."
    std::string deviceUnknown; // why there is no device, when device is empty (a mixed cluster)
    bool cpu = false;          // ScaleView's local workload on CPU ranks
    // The peak per device the user states (TFLOP/s): the only peak a CPU run gets.
    std::optional<double> statedPeakTflops;
    const DeviceCatalog* catalog = nullptr; // null: the built-in one
};

struct PeakShare {
    std::optional<double> pct; // of the peak, unrounded; may exceed 100 (then note says why)
    double flopsPerSample = 0.0;
    std::string device; // the catalogue's id, or the name given
    std::string deviceSource;
    double peakTflops = 0.0;
    std::string precision; // the peak's number format: fp32, tf32_tensor, fp16_tensor, ...
    std::string source;    // the peak's and the FLOPs' sources, in words
    std::string note;      // what a reader must know (TF32 taken, above 100 %)
    std::string unknown;   // "peak unknown: ..." when there is no pct
};

// The peak's number format for a run's precision on an architecture; empty when none fits.
// FP32 on Ampere and later is taken as TF32 (the frameworks' default for convolutions): *note.
std::string peakFormat(std::string_view precision, const DeviceEntry& device, std::string* note);

// A case of `devices` devices at `throughput` samples/s.
PeakShare peakShare(std::string_view model, std::string_view precision, int devices,
                    std::optional<double> throughput, const PeakOptions& options);

// A published table's figure at a topology, the device read from its hardware text.
PeakShare referencePeakShare(const ReferenceTable& table, const ReferenceSeries& series,
                             std::string_view topology, const DeviceCatalog& catalog);

// "61.3 %", or "peak unknown" — what a table cell shows.
std::string peakCell(const PeakShare& p);
// What the figure rests on, for a note under a table: "v100-sxm2-16gb fp32 15.7 TFLOP/s (device
// from nvidia-smi), 24.5351 GFLOP per sample; peak: <source>; FLOPs: <derivation>"; or why none.
std::string peakBasis(const PeakShare& p);

} // namespace sv
