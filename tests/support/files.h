#pragma once
// The tests' one way to read a whole file, and one way to write one.

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace sv::test {

inline std::string slurp(int fd) {
    std::string s;
    char buf[65536];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0)
        s.append(buf, static_cast<std::size_t>(n));
    return s;
}

// The whole file, or as much of it as could be read; empty when it cannot be opened. Never
// throws: a /proc file can vanish mid-read (its process ended; read() says ESRCH), which an
// ifstream turns into an exception.
inline std::string readWhole(const std::filesystem::path& path) {
    std::string s;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        s = slurp(fd);
        ::close(fd);
    }
    return s;
}

// Writes text as the whole file, in binary (no newline translation), making its folders first.
inline void writeFile(const std::filesystem::path& path, std::string_view text) {
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
}

} // namespace sv::test
