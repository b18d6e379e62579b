#pragma once
// The one way ScaleView writes a whole file (every --output, report, export, sidecar, reference
// table, user format, probes.json, campaign file): a new temporary file beside it, created with
// mkstemp (O_CREAT | O_EXCL, so a name planted in the folder, a symlink above all, is never
// opened), written, fsync'd, then renamed over the file (or linked, for a file that must be
// new), and the folder synced. Readers see the old file or the new one, never half of either; a
// symlink at the file's own name is replaced, never written through.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace sv {

struct AtomicWriteOptions {
    // A new file's permissions, less the process's umask, as open(2) gives them. A regular file
    // already there keeps its own.
    unsigned mode = 0666;
    // false: path must not exist yet: the file is linked into place, and one there (whatever it
    // is) is left alone and named in the error.
    bool replace = true;
};

// text as the whole of path. nullopt when written, else what went wrong, naming the file
// ("cannot write /a/b.json: No space left on device"). The temporary is removed on failure.
std::optional<std::string> writeFileAtomically(const std::filesystem::path& path,
                                               std::string_view text,
                                               const AtomicWriteOptions& options = {});

} // namespace sv
