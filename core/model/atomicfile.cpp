#include "core/model/atomicfile.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace sv {
namespace {

namespace fs = std::filesystem;

std::string reason() {
    return std::strerror(errno);
}

// The process's umask, read where it cannot be changed under another thread (umask(2) can
// only be read by setting it); 022 where /proc does not say.
mode_t currentUmask() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Umask:", 0) == 0)
            return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8) & 0777);
    return 022;
}

bool writeAll(int fd, std::string_view text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// The temporary's template beside path: ".NAME.XXXXXX", hidden, and short enough for any name.
std::string temporaryTemplate(const fs::path& dir, const fs::path& name) {
    const std::string base = name.string().size() <= 200 ? name.string() : std::string("scaleview");
    return (dir / ("." + base + ".XXXXXX")).string();
}

void syncFolder(const fs::path& dir) {
    if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
        ::fsync(d); // the rename itself on disk; a folder that cannot be synced still has it
        ::close(d);
    }
}

} // namespace

std::optional<std::string> writeFileAtomically(const fs::path& path, std::string_view text,
                                               const AtomicWriteOptions& options) {
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    if (!path.has_filename()) return "cannot write " + path.string() + ": no file name";
    std::string tmp = temporaryTemplate(dir, path.filename());
    const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
    if (fd < 0)
        return "cannot write " + path.string() + ": cannot create a file in " + dir.string() +
               ": " + reason();
    struct stat st {};
    const bool existing = ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
    const mode_t mode = existing ? (st.st_mode & 07777) : (options.mode & 07777 & ~currentUmask());
    std::optional<std::string> error;
    if (::fchmod(fd, mode) != 0 || !writeAll(fd, text) || ::fsync(fd) != 0)
        error = "cannot write " + tmp + ": " + reason();
    if (::close(fd) != 0 && !error) error = "cannot write " + tmp + ": " + reason();
    if (!error && options.replace && ::rename(tmp.c_str(), path.c_str()) != 0)
        error = "cannot replace " + path.string() + ": " + reason();
    if (!error && !options.replace && ::link(tmp.c_str(), path.c_str()) != 0)
        error = errno == EEXIST ? path.string() + " already exists"
                                : "cannot create " + path.string() + ": " + reason();
    if (error || !options.replace) ::unlink(tmp.c_str());
    if (!error) syncFolder(dir);
    return error;
}

} // namespace sv
