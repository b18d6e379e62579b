#include "core/load/workloadheader.h"

#include <fstream>

namespace sv {

namespace {

// The next ", "-separated field of rest, trimmed; rest moves past it.
std::string_view nextField(std::string_view& rest) {
    const std::size_t comma = rest.find(", ");
    std::string_view field = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 2);
    return field;
}

} // namespace

std::optional<WorkloadHeader> findWorkloadHeader(std::string_view head) {
    static constexpr std::string_view kModel = "ResNet-50 v1.5, ";
    for (std::size_t at = head.find(kModel); at != std::string_view::npos;
         at = head.find(kModel, at + 1)) {
        const std::size_t eol = head.find('\n', at);
        std::string_view rest = head.substr(at + kModel.size(), eol == std::string_view::npos
                                                                    ? std::string_view::npos
                                                                    : eol - at - kModel.size());
        const std::string_view framework = nextField(rest);
        const std::string_view device = nextField(rest);
        // The workload's own line, not a log that merely names the model: the framework with
        // its version, the device, then its synthetic data.
        if (!framework.starts_with("PyTorch ") || !rest.starts_with("synthetic data")) continue;
        if (device != "CPU" && device != "CUDA") continue;
        return WorkloadHeader{"ResNet-50 v1.5", std::string(framework), std::string(device)};
    }
    return std::nullopt;
}

std::optional<WorkloadHeader> readWorkloadHeader(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::string head(kWorkloadHeaderBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return findWorkloadHeader(head);
}

} // namespace sv
