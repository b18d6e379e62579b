#include "core/bundle/gzipwriter.h"

#include "core/bundle/sha256.h"

#include <stdexcept>

namespace sv {

std::string GzipWriter::headerFor(std::string_view streamAndTrailer) {
    return std::string(reinterpret_cast<const char*>(kHeader), sizeof kHeader) +
           Sha256::of(streamAndTrailer);
}

GzipWriter::GzipWriter() {
    // Raw deflate (negative window bits): the header and trailer are written here. The header's
    // place is kept; its checksum is known only when the stream is done.
    if (deflateInit2(&m_stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("zlib could not start a deflate stream");
    m_out.assign(kHeaderSize, '\0');
    m_crc = static_cast<std::uint32_t>(crc32(0L, Z_NULL, 0));
}

GzipWriter::~GzipWriter() {
    deflateEnd(&m_stream);
}

void GzipWriter::deflateInto(int flush) {
    char buffer[1 << 16];
    int rc = Z_OK;
    do {
        m_stream.next_out = reinterpret_cast<Bytef*>(buffer);
        m_stream.avail_out = sizeof buffer;
        rc = deflate(&m_stream, flush);
        m_out.append(buffer, sizeof buffer - m_stream.avail_out);
    } while (m_stream.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
}

void GzipWriter::write(std::string_view bytes) {
    while (!bytes.empty()) {
        const auto piece = static_cast<uInt>(std::min<std::size_t>(bytes.size(), 1u << 30));
        m_crc = static_cast<std::uint32_t>(
            crc32(m_crc, reinterpret_cast<const Bytef*>(bytes.data()), piece));
        m_size += piece;
        m_stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
        m_stream.avail_in = piece;
        deflateInto(Z_NO_FLUSH);
        bytes.remove_prefix(piece);
    }
}

std::string GzipWriter::finish() {
    m_stream.next_in = nullptr;
    m_stream.avail_in = 0;
    deflateInto(Z_FINISH);
    auto put32 = [this](std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            m_out += static_cast<char>((v >> (8 * i)) & 0xff);
    };
    put32(m_crc);
    put32(static_cast<std::uint32_t>(m_size & 0xffffffffu));
    const std::string header = headerFor(std::string_view(m_out).substr(kHeaderSize));
    m_out.replace(0, kHeaderSize, header);
    return std::move(m_out);
}

} // namespace sv
