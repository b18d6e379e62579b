#include "core/bundle/gzipreader.h"

#include "core/bundle/bundleerror.h"
#include "core/bundle/gzipwriter.h"

#include <algorithm>
#include <cstring>

namespace sv {
namespace {

constexpr std::size_t kChunk = 1 << 16;

void checkFixed(const unsigned char* header, const unsigned char* fixed, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (header[i] != fixed[i])
            throw BundleRefused("gzip header byte " + std::to_string(i) + " is " +
                                std::to_string(header[i]) + ", a bundle's is " +
                                std::to_string(fixed[i]));
}

} // namespace

GzipReader::GzipReader(std::istream& in, std::uint64_t maxBytes)
    : m_in(in), m_input(kChunk), m_maxBytes(maxBytes) {
    if (inflateInit2(&m_stream, -15) != Z_OK)
        throw BundleRefused("zlib could not start an inflate stream");
    m_crc = static_cast<std::uint32_t>(crc32(0L, Z_NULL, 0));
    try {
        readHeader();
    } catch (...) {
        inflateEnd(&m_stream);
        throw;
    }
}

GzipReader::~GzipReader() {
    inflateEnd(&m_stream);
}

// Every header byte is fixed or checked: a changed flag, time or OS byte is no bundle ScaleView
// wrote, and the checksum it carries covers every byte after it, so a change in the deflate stream
// that inflates to the same content is caught too.
void GzipReader::readHeader() {
    unsigned char header[GzipWriter::kHeaderSize];
    constexpr std::size_t older = sizeof GzipWriter::kOlderHeader;
    m_in.read(reinterpret_cast<char*>(header), older);
    if (m_in.gcount() < 2 || header[0] != 0x1f || header[1] != 0x8b)
        throw BundleRefused("not a gzip file (a bundle is a gzip-compressed tar)");
    if (static_cast<std::size_t>(m_in.gcount()) < older)
        throw BundleRefused("the archive is truncated: its gzip header ends early");
    // No flag set: an older ScaleView's header, each byte of it fixed too.
    if (header[3] == 0) {
        checkFixed(header, GzipWriter::kOlderHeader, older);
        m_older = true;
        return;
    }
    m_in.read(reinterpret_cast<char*>(header + older),
              static_cast<std::streamsize>(sizeof header - older));
    if (static_cast<std::size_t>(m_in.gcount()) < sizeof header - older)
        throw BundleRefused("the archive is truncated: its gzip header ends early");
    checkFixed(header, GzipWriter::kHeader, sizeof GzipWriter::kHeader);
    m_expectedSha.assign(reinterpret_cast<const char*>(header) + sizeof GzipWriter::kHeader, 64);
    const auto notHex = m_expectedSha.find_first_not_of("0123456789abcdef");
    if (notHex != std::string::npos)
        throw BundleRefused("gzip header byte " +
                            std::to_string(sizeof GzipWriter::kHeader + notHex) +
                            " is no lowercase hex digit, yet lies in the header's SHA-256 "
                            "(the file was changed after it was written)");
}

bool GzipReader::fill() {
    m_in.read(m_input.data(), static_cast<std::streamsize>(m_input.size()));
    const auto got = static_cast<uInt>(m_in.gcount());
    m_sha.update(std::string_view(m_input.data(), got));
    m_stream.next_in = reinterpret_cast<Bytef*>(m_input.data());
    m_stream.avail_in = got;
    return got > 0;
}

std::size_t GzipReader::inflateSome(char* out, std::size_t n) {
    if (m_ended || n == 0) return 0;
    m_stream.next_out = reinterpret_cast<Bytef*>(out);
    m_stream.avail_out = static_cast<uInt>(n);
    while (m_stream.avail_out == n) {
        if (m_stream.avail_in == 0 && !fill())
            throw BundleRefused("the archive is truncated: its compressed stream ends early");
        const Bytef* before = m_stream.next_in;
        const int rc = inflate(&m_stream, Z_NO_FLUSH);
        if (m_stream.next_in > before) m_lastByte = *(m_stream.next_in - 1);
        if (rc == Z_STREAM_END) {
            m_ended = true;
            break;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            throw BundleRefused("the compressed stream is corrupt (zlib: " +
                                std::string(m_stream.msg ? m_stream.msg : "data error") + ")");
    }
    const std::size_t got = n - m_stream.avail_out;
    m_crc = static_cast<std::uint32_t>(
        crc32(m_crc, reinterpret_cast<const Bytef*>(out), static_cast<uInt>(got)));
    m_total += got;
    if (m_total > m_maxBytes)
        throw BundleRefused("the archive decompresses to more than the " +
                            std::to_string(m_maxBytes) +
                            " bytes its manifest accounts for (a decompression bomb is refused)");
    if (m_ended) checkTrailer();
    return got;
}

void GzipReader::readExactly(char* out, std::size_t n) {
    while (n > 0) {
        const std::size_t piece = std::min(n, kChunk);
        const std::size_t got = inflateSome(out, piece);
        if (got == 0) throw BundleRefused("the archive is truncated: its tar stream ends early");
        out += got;
        n -= got;
    }
}

// The trailer, nothing after the member, and then the header's checksum of both and the stream;
// and the stream's unused last bits, CRC-32 and length, which an older ScaleView's bundle has
// nothing else to cover.
void GzipReader::checkTrailer() {
    unsigned char trailer[8];
    std::size_t have = 0;
    while (have < sizeof trailer) {
        if (m_stream.avail_in == 0 && !fill())
            throw BundleRefused("the archive is truncated: its gzip trailer ends early");
        const std::size_t take = std::min<std::size_t>(sizeof trailer - have, m_stream.avail_in);
        std::memcpy(trailer + have, m_stream.next_in, take);
        m_stream.next_in += take;
        m_stream.avail_in -= static_cast<uInt>(take);
        have += take;
    }
    if (m_stream.avail_in > 0 || fill())
        throw BundleRefused("data after the end of the compressed stream");
    if (!m_older && m_sha.hex() != m_expectedSha)
        throw BundleRefused("the compressed stream differs from its checksum: the file was "
                            "changed after it was written");
    const int unusedBits = m_stream.data_type & 7;
    if (unusedBits > 0 && (m_lastByte >> (8 - unusedBits)) != 0)
        throw BundleRefused("the compressed stream's last byte has padding bits set");
    auto get32 = [&](int at) {
        std::uint32_t v = 0;
        for (int i = 3; i >= 0; --i)
            v = (v << 8) | trailer[at + i];
        return v;
    };
    if (get32(0) != m_crc)
        throw BundleRefused("the archive's CRC-32 does not match its content (a changed byte)");
    if (get32(4) != static_cast<std::uint32_t>(m_total & 0xffffffffu))
        throw BundleRefused("the archive's recorded length does not match its content");
}

void GzipReader::finish() {
    char extra[512];
    if (!m_ended && inflateSome(extra, sizeof extra) > 0)
        throw BundleRefused("data after the archive's end");
    if (!m_ended) throw BundleRefused("the archive is truncated: its compressed stream ends early");
}

} // namespace sv
