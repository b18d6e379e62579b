#pragma once
// Whether a campaign's output directory can take what the campaign will write: a file can be
// created there (or where it will be created), and the file system has room for the expected
// log volume (runs x iterations x ranks x a speed line, with margin). Blocking file system
// calls: run it on a worker thread.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"

#include <cstdint>
#include <string>

namespace sv::launcher {

struct OutputSpace {
    bool writable = false;
    std::string where;           // the directory checked (the output directory, or its parent)
    std::string writeError;      // why a file could not be created there
    std::uint64_t needed = 0;    // bytes the campaign's logs are expected to take, with margin
    std::uint64_t available = 0; // bytes free for this user on that file system
    bool ok() const { return writable && available >= needed; }
    std::string message() const; // in words, with the figures
};

// The log volume estimate alone (bytes, margin included).
std::uint64_t expectedLogBytes(const Campaign& campaign, const WorkloadProfile& profile);
OutputSpace checkOutputSpace(const Campaign& campaign, const WorkloadProfile& profile);

} // namespace sv::launcher
