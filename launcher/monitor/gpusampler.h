#pragma once
// What could disturb a run on this machine's GPUs, from nvidia-smi: each GPU's SM clock,
// active throttle reasons, temperature and power, and the compute processes on them that do not
// carry the run's tag. Runs nvidia-smi and waits for it: for a worker thread only.

#include <cstdint>
#include <string>
#include <vector>

namespace sv::launcher {

struct GpuState {
    int index = 0;
    double smClockMhz = 0, temperatureC = 0, powerW = 0;
    std::uint64_t throttle = 0; // clocks_throttle_reasons.active, nvidia-smi's bit mask
};

struct GpuProcess {
    int pid = 0;
    std::string name;
};

struct GpuSample {
    std::vector<GpuState> gpus;
    std::vector<GpuProcess> foreign; // compute processes not carrying the run's tag
    std::string error;               // nvidia-smi could not be run or read: why
};

// The throttle reasons that slow a run (thermal, power), in words; the rest (idle, application
// clocks, sync boost) are not a disturbance. Empty: none of them.
std::string throttleWords(std::uint64_t reasons);

class GpuSampler {
  public:
    explicit GpuSampler(std::string tag, std::string program = "nvidia-smi");
    GpuSample sample() const;

  private:
    std::string m_tag, m_program;
};

} // namespace sv::launcher
