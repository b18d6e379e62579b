#pragma once
// How a run stands or ended. Ok, Incomplete, Failed and Timeout are final: resume leaves them;
// Pending, Cancelled and Interrupted runs run again.

#include <optional>
#include <string>
#include <string_view>

namespace sv::launcher {

enum class RunState { Pending, Running, Ok, Incomplete, Failed, Timeout, Cancelled, Interrupted };

std::string_view runStateName(RunState s);
std::optional<RunState> parseRunState(std::string_view name);
inline bool isFinal(RunState s) {
    return s == RunState::Ok || s == RunState::Incomplete || s == RunState::Failed ||
           s == RunState::Timeout;
}

} // namespace sv::launcher
