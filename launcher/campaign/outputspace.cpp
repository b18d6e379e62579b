#include "launcher/campaign/outputspace.h"

#include "launcher/campaign/plannedrun.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sys/statvfs.h>
#include <unistd.h>

namespace sv::launcher {
namespace fs = std::filesystem;

namespace {

// A speed line with its timestamp and rank prefix is about 120 bytes; what launchers and
// frameworks print around them is paid for by the margin.
constexpr std::uint64_t kBytesPerLine = 160;
constexpr std::uint64_t kMargin = 2;
constexpr std::uint64_t kPerRun = 64 * 1024; // start-up chatter, the journal's records

std::string size(std::uint64_t bytes) {
    char buf[32];
    if (bytes >= (1ull << 30))
        std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
    else if (bytes >= (1ull << 20))
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1ull << 20));
    else
        std::snprintf(buf, sizeof buf, "%.0f KiB", static_cast<double>(bytes) / 1024.0);
    return buf;
}

} // namespace

std::uint64_t expectedLogBytes(const Campaign& campaign, const WorkloadProfile& profile) {
    std::uint64_t bytes = 0;
    for (const PlannedRun& run : planRuns(campaign, profile)) {
        const auto ranks = static_cast<std::uint64_t>(run.key.topology.nodes) *
                           static_cast<std::uint64_t>(run.key.topology.gpusPerNode);
        bytes += static_cast<std::uint64_t>(campaign.iterations) * ranks * kBytesPerLine * kMargin +
                 kPerRun;
    }
    return bytes;
}

OutputSpace checkOutputSpace(const Campaign& campaign, const WorkloadProfile& profile) {
    OutputSpace s;
    s.needed = expectedLogBytes(campaign, profile);
    // The output directory, or the nearest directory above it that exists (where it will be
    // created).
    std::error_code ec;
    fs::path dir = fs::absolute(campaign.outputDir, ec);
    while (!dir.empty() && !fs::is_directory(dir, ec) && dir != dir.root_path())
        dir = dir.parent_path();
    s.where = dir.string();
    // Creating a file is the only honest test: root passes every permission check, and a
    // read-only mount or a full quota only shows when a file is made.
    std::string probe = (dir / ".scaleview-write-test-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) {
        s.writeError = std::strerror(errno);
    } else {
        s.writable = ::write(fd, "x", 1) == 1;
        if (!s.writable) s.writeError = std::strerror(errno);
        ::close(fd);
        ::unlink(probe.c_str());
    }
    struct statvfs vfs {};
    if (::statvfs(s.where.c_str(), &vfs) == 0)
        s.available = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
    return s;
}

std::string OutputSpace::message() const {
    if (!writable)
        return "cannot create a file in " + where + " (" + writeError +
               "): choose an output directory this user can write";
    const std::string figures = "the logs need about " + size(needed) + " (with margin), " +
                                size(available) + " free in " + where;
    return available >= needed ? figures
                               : figures + ": free space there or choose another output directory";
}

} // namespace sv::launcher
