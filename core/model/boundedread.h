#pragma once
// A user's small file (a sidecar, a device or reference catalogue) read whole, but only when it is
// a regular file within a bound: a larger one is refused from its size, never read, so a huge or
// endless file cannot take the memory.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace sv {

// file's bytes; nullopt and *error when they cannot be had: "larger than 1 MiB (N bytes): not
// WHAT, not read" (what: "a sidecar"), "not a regular file; not read", or the system's words.
std::optional<std::string> readBoundedText(const std::filesystem::path& file,
                                           std::uintmax_t maxBytes, const std::string& what,
                                           std::string* error);

} // namespace sv
