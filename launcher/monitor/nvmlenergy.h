#pragma once
// Each GPU's own energy counter (NVML's total energy, millijoules since the driver loaded), read
// through the driver's libnvidia-ml.so.1 loaded at run time: no build-time dependency, and a
// machine without the driver says why its energy is not measured. Holds NVML initialised from
// construction to destruction, so that the driver stays loaded (and its counter keeps counting)
// across the run. Its calls may wait on the driver: for a worker thread only.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct GpuEnergy {
    int index = 0;                            // NVML's index (not CUDA's): the UUID names the board
    std::string uuid, name;                   // "GPU-…", "NVIDIA H100 80GB HBM3"
    std::optional<std::uint64_t> millijoules; // unset: the board has no counter (error says why)
    std::optional<double> powerW;             // nvmlDeviceGetPowerUsage, where it answers
    std::string error;
};

struct EnergyReading {
    std::vector<GpuEnergy> gpus;
    std::string error; // NVML as a whole could not be read: why ("" when gpus were read)
};

class NvmlEnergy {
  public:
    // library: what to dlopen; empty: $SCALEVIEW_NVML_LIBRARY where set (the tests' stand-in
    // library), else the driver's libnvidia-ml.so.1.
    explicit NvmlEnergy(std::string library = {});
    ~NvmlEnergy();
    NvmlEnergy(const NvmlEnergy&) = delete;
    NvmlEnergy& operator=(const NvmlEnergy&) = delete;

    // Why NVML cannot be read here ("libnvidia-ml.so.1: cannot open shared object file…",
    // "nvmlInit_v2: Driver Not Loaded"); empty: it can.
    const std::string& error() const { return m_error; }
    // Every GPU's counter and power now.
    EnergyReading read() const;

  private:
    struct Functions;
    void* m_handle = nullptr;
    Functions* m_fn = nullptr;
    bool m_initialised = false;
    std::string m_error;
};

} // namespace sv::launcher
