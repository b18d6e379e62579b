#pragma once
// The devices a log names as a system rather than as a count, collected line by line for
// readRunFacts (runfacts.h): MLPerf's accelerators_per_node (times its number_of_nodes), a
// submission_platform that names N systems of a kind whose GPUs are known ("64xNVIDIA DGX H100",
// "130xDGX-1 with V100"), maskrcnn-benchmark's "Using 8 GPUs"; and the devices that are no GPUs
// (TPU cores, Gaudi HPUs, Xeon CPUs, AWS Neuron) or a system of unknown make-up, so that a run
// whose GPUs stay unknown says what its log did state.

#include "core/parse/runfacts.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace sv {

// The GPUs of one system of a known kind, by its name as MLPerf writes it ("NVIDIA DGX A100",
// "DGX-1 with V100", "dgx2h"): DGX-1, DGX A100, DGX H100/H200, DGX B200 have 8, DGX-2(H) 16.
std::optional<int> gpusOfSystem(std::string_view name);

class DeviceFacts {
  public:
    void line(std::string_view text, std::int64_t n);
    // One MLPerf record (":::MLLOG" JSON or ":::MLL key: {"value": ...}"), value as written.
    void record(std::string_view key, std::string_view value, std::int64_t n);

    // The GPUs the log states as systems or per node (nodes: MLPerf's number_of_nodes, for
    // accelerators_per_node); nullopt where it does not.
    std::optional<RunFact> gpus(const std::optional<RunFact>& nodes) const;
    // What the log says of devices that gives no GPU count ("8 TPU cores"), for the "GPUs ?"
    // reason.
    const std::optional<RunFact>& notCounted() const { return m_notCounted; }

  private:
    void platform(std::string_view value, std::int64_t n);
    void notGpus(std::string what, std::int64_t n, std::string_view evidence);

    std::optional<RunFact> m_perNode, m_systems, m_using, m_notCounted;
};

} // namespace sv
