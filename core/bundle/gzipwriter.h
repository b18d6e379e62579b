#pragma once
// A gzip member written the one way a bundle's is (RFC 1952 with no name and no time, and one
// extra field, "SV", holding the SHA-256 of everything after the header as 64 hex digits, so
// every byte of the file is fixed or checked on reading), deflated with zlib.

#include <cstdint>
#include <string>
#include <string_view>

#include <zlib.h>

namespace sv {

class GzipWriter {
  public:
    // The header bytes an older ScaleView's bundle begins with (no extra field).
    static constexpr unsigned char kOlderHeader[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
    // The header bytes every bundle begins with before its checksum: FLG has FEXTRA (4), XLEN is
    // 68, and the one subfield is "SV" with 64 bytes (RFC 1952 2.3.1.1).
    static constexpr unsigned char kHeader[16] = {0x1f, 0x8b, 8,  4, 0,   0,   0,  0,
                                                  0,    0xff, 68, 0, 'S', 'V', 64, 0};
    // The whole header's length: the checksum's hex digits follow kHeader, the deflate stream
    // follows them (`tail -c +81` is the stream and trailer).
    static constexpr std::size_t kHeaderSize = sizeof kHeader + 64;

    // The full header for a compressed stream and trailer: kHeader, then their SHA-256 in hex.
    static std::string headerFor(std::string_view streamAndTrailer);

    GzipWriter();
    ~GzipWriter();
    GzipWriter(const GzipWriter&) = delete;
    GzipWriter& operator=(const GzipWriter&) = delete;

    void write(std::string_view bytes);
    // The whole compressed member (header, deflate stream, CRC-32 and length); the writer is spent.
    std::string finish();

  private:
    void deflateInto(int flush);

    z_stream m_stream{};
    std::string m_out;
    std::uint32_t m_crc = 0;
    std::uint64_t m_size = 0;
};

} // namespace sv
