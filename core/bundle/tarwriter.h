#pragma once
// A POSIX ustar stream of regular files, the only kind of entry a bundle holds: a path of at
// most 255 bytes (split into ustar's prefix and name), mode 0644, owner 0, one time for all.

#include <cstdint>
#include <string>
#include <string_view>

namespace sv {

class GzipWriter;

class TarWriter {
  public:
    TarWriter(GzipWriter& out, std::int64_t mtime) : m_out(out), m_mtime(mtime) {}

    // Throws std::invalid_argument naming the path when ustar cannot hold it.
    void addFile(const std::string& path, std::string_view content);
    // The two zero blocks that end the archive.
    void finish();

    // The header block for path and size (exposed for the tests that forge archives).
    static std::string header(const std::string& path, std::uint64_t size, std::int64_t mtime,
                              char type = '0', const std::string& linkTarget = {});

  private:
    GzipWriter& m_out;
    std::int64_t m_mtime;
};

} // namespace sv
