#pragma once
// A gzip member written the one way a bundle's is (RFC 1952 with no name, no time, no extra
// fields, so every header byte is fixed and checked on reading), deflated with zlib.

#include <cstdint>
#include <string>
#include <string_view>

#include <zlib.h>

namespace sv {

class GzipWriter {
  public:
    // The header bytes every bundle begins with; GzipReader refuses any other.
    static constexpr unsigned char kHeader[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};

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
