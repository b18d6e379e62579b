#include "launcher/campaign/runstate.h"

#include <array>

namespace sv::launcher {
namespace {
constexpr std::array<std::string_view, 8> kNames{"pending", "running", "ok",        "incomplete",
                                                 "failed",  "timeout", "cancelled", "interrupted"};
}

std::string_view runStateName(RunState s) {
    return kNames[static_cast<std::size_t>(s)];
}

std::optional<RunState> parseRunState(std::string_view name) {
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name) return static_cast<RunState>(i);
    return std::nullopt;
}

} // namespace sv::launcher
