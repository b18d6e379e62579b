#include "core/parse/logread.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace sv {

LogRead readLogFile(const std::filesystem::path& path, LogParser& parser, LogPosition from,
                    const LogRestart& restart) {
    LogRead out;
    out.position = from;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        out.error = std::strerror(errno);
        return out;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        out.error = std::strerror(errno);
        ::close(fd);
        return out;
    }
    if (!S_ISREG(st.st_mode)) {
        out.error = "not a regular file";
        ::close(fd);
        return out;
    }
    const auto inode = static_cast<std::uint64_t>(st.st_ino);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    LogParser* target = &parser;
    if (from.offset > 0 && (inode != from.inode || size < from.offset)) {
        target = &restart();
        out.restarted = true;
        out.position.offset = 0;
    }
    out.position.inode = inode;
    if (out.position.offset == 0) ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    if (out.position.offset > 0 &&
        ::lseek(fd, static_cast<off_t>(out.position.offset), SEEK_SET) < 0) {
        out.error = std::strerror(errno);
        ::close(fd);
        return out;
    }
    constexpr std::size_t kChunk = std::size_t{1} << 20;
    auto buffer = std::make_unique_for_overwrite<char[]>(kChunk); // not zeroed: read() fills it
    while (out.position.offset < size) {
        const auto want =
            static_cast<std::size_t>(std::min<std::uint64_t>(size - out.position.offset, kChunk));
        const ssize_t n = ::read(fd, buffer.get(), want);
        if (n < 0) {
            if (errno == EINTR) continue;
            out.error = std::strerror(errno);
            break;
        }
        if (n == 0) break; // shrank while being read: what was there is parsed
        target->feed(std::string_view(buffer.get(), static_cast<std::size_t>(n)));
        out.position.offset += static_cast<std::uint64_t>(n);
    }
    ::close(fd);
    return out;
}

} // namespace sv
