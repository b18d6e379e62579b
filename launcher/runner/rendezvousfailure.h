#pragma once
// Recognizes, in a run's output, the lines that say a rank cannot reach the rendezvous address
// (the name does not resolve on that host, or nothing routes to it), which PyTorch and gloo
// only retry until the start timeout: the run can end at once, naming the address and what
// to do. Pure: no process, no file.

#include <optional>
#include <string>
#include <string_view>

namespace sv::launcher {

// The reason to end the run with, from a chunk of whole lines; nullopt when no line says the
// rendezvous cannot be reached.
std::optional<std::string> rendezvousFailure(std::string_view chunk);

} // namespace sv::launcher
