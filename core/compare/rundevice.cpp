#include "core/compare/rundevice.h"

#include "core/compare/environmentsummary.h"
#include "core/load/campaignrecords.h"
#include "core/load/sidecars.h"
#include "core/load/workloadheader.h"
#include "core/stats/summary.h"

#include <nlohmann/json.hpp>

namespace sv {

PeakOptions findRunDevice(const std::filesystem::path& root,
                          const std::vector<std::filesystem::path>& logs) {
    PeakOptions o;
    std::error_code ec;
    const auto folder = std::filesystem::is_directory(root, ec) ? root : root.parent_path();
    const auto sidecar = folder / "scaleview.json";
    std::string error;
    if (std::filesystem::exists(sidecar, ec)) {
        if (auto text = readSidecarText(sidecar, &error)) {
            const auto j = nlohmann::json::parse(*text, nullptr, false);
            if (j.is_object() && j.contains("device") && j["device"].is_string()) {
                o.device = j["device"].get<std::string>();
                o.deviceSource = sidecar.string();
                return o;
            }
        }
    }
    const EnvironmentSummary env = summarizeEnvironment(capturedFiles(folder));
    if (!env.gpuModel.empty()) {
        // Several GPU models joined by " / ": a mixed cluster has no one peak.
        if (env.gpuModel.find(" / ") != std::string::npos) {
            o.deviceUnknown = "the captured environment names several GPUs (" + env.gpuModel + ")";
        } else {
            o.device = env.gpuModel;
            o.deviceSource = "nvidia-smi, in the captured environment";
        }
        return o;
    }
    const std::size_t looked = std::min<std::size_t>(logs.size(), 3);
    for (std::size_t i = 0; i < looked; ++i)
        if (auto w = readWorkloadHeader(logs[i]); w && w->onCpu()) {
            o.cpu = true;
            o.deviceSource = "the workload's header (CPU ranks)";
            return o;
        }
    return o;
}

PeakOptions findRunDevice(const Summary& summary) {
    std::vector<std::filesystem::path> logs;
    for (const auto& r : summary.runs) {
        if (logs.size() >= 3) break;
        const std::filesystem::path p(r.path);
        logs.push_back(p.is_absolute() ? p : std::filesystem::path(summary.root) / p);
    }
    return findRunDevice(summary.root, logs);
}

} // namespace sv
