#pragma once
// What a path inside a bundle may be: relative, inside the bundle, plain. Checked when writing
// one and, above all, before anything read from one is written to disk.

#include <optional>
#include <string>

namespace sv {

// nullopt for a safe path; else why not ("leaves the bundle ('..')", "is absolute"...).
std::optional<std::string> bundlePathProblem(const std::string& path);

} // namespace sv
