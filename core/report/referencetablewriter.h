#pragma once
// A summary made into reference tables, in the published tables' JSON schema, so that any set
// of cases can be compared with later like the published ones: one table per model, precision
// and batch size, with each case's median, speedup, method and every repeat.

#include "core/stats/summary.h"

#include <filesystem>
#include <optional>
#include <string>

namespace sv {

struct ReferenceTableInfo {
    std::string id, title;
    std::string source;   // where the figures came from (the directory, the date)
    std::string hardware; // what they ran on, when known
};

// {"tables": [...]}. A summary of one case group gives one table with info.id; several groups
// give "ID-<precision>-bs<batch>" (and "-<model>" when models differ). nullopt with *error when
// the summary has no case with a median.
std::optional<std::string> referenceTablesJson(const Summary& summary,
                                               const ReferenceTableInfo& info, std::string* error);

// An id a table file may be named after: letters, digits, '.', '_' or '-', up to 100.
bool isValidReferenceId(const std::string& id);

// Writes a new file and never replaces one: the text goes to a temporary file first, then is
// linked in under its name (link() fails when the name exists), so a reader sees all or nothing.
// false with *error ("... already exists") otherwise.
bool writeNewReferenceFile(const std::filesystem::path& path, const std::string& text,
                           std::string& error);

// Where a user's own tables live: $XDG_DATA_HOME/scaleview/references, or
// ~/.local/share/scaleview/references (the caller reads the environment; core reads none).
std::filesystem::path userReferenceDirectory(const char* xdgDataHome, const char* home);

} // namespace sv
