#pragma once
// A bundle's gzip member read strictly and in pieces: the header must be the fixed one
// GzipWriter writes, the compressed stream and trailer must match the header's SHA-256 (an
// older ScaleView's header, without it, is read and said), the decompressed size stays under a
// bound the caller may lower as it learns more (so a decompression bomb is stopped, never
// inflated), and the stream's CRC-32, length, padding bits and end are all checked. Every fault
// throws BundleRefused with its reason.

#include "core/bundle/sha256.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include <zlib.h>

namespace sv {

class GzipReader {
  public:
    GzipReader(std::istream& in, std::uint64_t maxBytes);
    ~GzipReader();
    GzipReader(const GzipReader&) = delete;
    GzipReader& operator=(const GzipReader&) = delete;

    // Exactly n decompressed bytes into out; refused when the stream ends first.
    void readExactly(char* out, std::size_t n);
    // Decompressed bytes so far.
    std::uint64_t position() const { return m_total; }
    void setMaxBytes(std::uint64_t maxBytes) { m_maxBytes = maxBytes; }
    // The stream must end here: no decompressed byte left, its trailer right, nothing after it.
    void finish();
    // The header is an older ScaleView's, with no checksum of the compressed stream.
    bool olderFormat() const { return m_older; }

  private:
    void readHeader();
    bool fill(); // more compressed input; false at the end of the file
    // Up to n decompressed bytes; 0 only at the end of the deflate stream.
    std::size_t inflateSome(char* out, std::size_t n);
    void checkTrailer();

    std::istream& m_in;
    z_stream m_stream{};
    std::vector<char> m_input;
    std::uint64_t m_maxBytes;
    std::uint64_t m_total = 0;
    std::uint32_t m_crc = 0;
    bool m_ended = false;
    unsigned char m_lastByte = 0;
    bool m_older = false;
    std::string m_expectedSha; // the header's checksum of every byte after it
    Sha256 m_sha;              // of every byte read after the header
};

} // namespace sv
