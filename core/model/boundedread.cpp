#include "core/model/boundedread.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sv {

namespace fs = std::filesystem;

std::optional<std::string> readBoundedText(const fs::path& file, std::uintmax_t maxBytes,
                                           const std::string& what, std::string* error) {
    // O_NONBLOCK: a FIFO planted under the name must not hold the read; O_NOFOLLOW is not
    // wanted, the user's file may be a link they made.
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (error) *error = std::strerror(errno);
        return std::nullopt;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        if (error) *error = "not a regular file; not read";
        return std::nullopt;
    }
    auto tooLarge = [&](std::uintmax_t size) {
        if (error)
            *error = "larger than " + std::to_string(maxBytes >> 20) + " MiB (" +
                     std::to_string(size) + " bytes): not " + what + ", not read";
        return std::nullopt;
    };
    if (static_cast<std::uintmax_t>(st.st_size) > maxBytes) {
        ::close(fd);
        return tooLarge(static_cast<std::uintmax_t>(st.st_size));
    }
    // At most one byte past the bound, should the file grow while it is read.
    std::string text(static_cast<std::size_t>(st.st_size) + 1, '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            if (error) *error = std::strerror(errno);
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
        if (got == text.size() && got <= maxBytes) text.resize(text.size() + 4096);
        if (got > maxBytes) {
            ::close(fd);
            return tooLarge(got);
        }
    }
    ::close(fd);
    text.resize(got);
    return text;
}

} // namespace sv
