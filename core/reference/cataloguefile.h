#pragma once
// A user's catalogue file (device and model facts, reference tables) read for its addFile: with
// the bound every user file is read with (core/model/boundedread.h), never whole and unbounded.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace sv {

// The most a catalogue may hold: thousands of devices or table rows come to far less; a larger
// file is refused from its size.
inline constexpr std::uintmax_t kMaxCatalogueBytes = std::uintmax_t{8} << 20;

// file's text; nullopt and *error ("FILE: larger than 8 MiB (N bytes): not a catalogue, not
// read", "FILE: cannot be read: REASON") when it cannot be had.
std::optional<std::string> readCatalogueFile(const std::filesystem::path& file, std::string* error);

} // namespace sv
