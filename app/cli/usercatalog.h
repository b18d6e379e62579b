#pragma once
// The reference tables a command compares with: the published ones, the user's own (saved in
// the XDG data directory) and any --reference-file, each file taken whole or refused.

#include "core/reference/referencecatalog.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv::cli {

// $XDG_DATA_HOME/scaleview/references (or ~/.local/share/...), from this process's environment.
std::filesystem::path userReferenceDir();

// Built-in + user tables (a refused user file is a warning on standard error unless quiet) +
// files, which must all load: nullopt with *error naming the file, field and reason otherwise.
std::optional<ReferenceCatalog> loadCatalog(const std::vector<std::string>& files, bool quiet,
                                            std::string* error);

// Removes every "--name VALUE" and "--name=VALUE" from argv and returns the values in order:
// for options that may be given more than once. *error when one has no value.
std::vector<std::string> takeRepeated(std::vector<std::string>& argv, const std::string& name,
                                      std::string* error);

} // namespace sv::cli
