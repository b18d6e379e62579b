#pragma once
// A run's GPU energy per image, from the samples the launcher's monitor journalled beside it
// (DIR/monitor/<run>.jsonl): each GPU's own energy counter (NVML) read with every sample, else
// nvidia-smi's power integrated over the samples; said which, and why where neither was read.

#include "core/load/rundisturbance.h"
#include "core/model/runresult.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sv {

// One host's sample as the energy needs it.
struct EnergySample {
    double iteration = 0;  // iterations every rank had logged when it was taken
    double seconds = 0;    // the interval it covers
    bool counters = false; // every GPU's counter answered
    std::map<std::string, std::uint64_t> millijoules; // by GPU UUID: each board once per node
    bool power = false;                               // nvidia-smi answered
    double watts = 0;                                 // its GPUs' power, summed
};

// Each host's samples of the run tagged `tag`, in file order.
std::map<std::string, std::vector<EnergySample>>
readEnergySamples(const std::filesystem::path& file, const std::string& tag);

// The energy of a run measured over iterations [from, to) at imagesPerIteration (all ranks):
// per host, from its last sample at or before `from` (else its first) to its first at or after
// `to` (else its last), the energy over the iterations between those two samples; the hosts'
// energies per iteration added. Unset with why in *note.
std::optional<RunResult::Energy>
energyOver(const std::map<std::string, std::vector<EnergySample>>& hosts, double from, double to,
           double imagesPerIteration, std::string* note);

// Fills RunResult::energy (or energyNote) for every run, from the monitors the journal names.
void applyRunEnergy(std::vector<RunResult>& runs, const std::filesystem::path& root,
                    const RunDisturbances& found);

} // namespace sv
