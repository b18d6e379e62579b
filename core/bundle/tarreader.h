#pragma once
// A bundle's ustar stream read strictly: regular files only (a link, device, FIFO, directory or
// extended header is refused by name), octal fields, right checksums, safe paths, zero padding,
// and the two zero blocks at the end with nothing after them. Faults throw BundleRefused.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace sv {

class GzipReader;

struct TarEntry {
    std::string path;
    std::uint64_t size = 0;
};

class TarReader {
  public:
    explicit TarReader(GzipReader& in) : m_in(in) {}

    // The next entry's header; nullopt at the archive's end, which must be the stream's end.
    std::optional<TarEntry> next();
    // The current entry's data, in pieces, to sink; then its padding, checked.
    void readData(const std::function<void(std::string_view)>& sink);

  private:
    GzipReader& m_in;
    std::uint64_t m_pending = 0; // data bytes of the current entry not yet read
    std::string m_current;
};

} // namespace sv
