#include "core/bundle/tarwriter.h"

#include "core/bundle/gzipwriter.h"

#include <cstring>
#include <stdexcept>

namespace sv {
namespace {

void putOctal(char* field, std::size_t width, std::uint64_t value) {
    // width - 1 digits and a NUL, as ustar asks (the callers' values fit).
    for (std::size_t i = width - 1; i-- > 0; value >>= 3)
        field[i] = static_cast<char>('0' + (value & 7));
    field[width - 1] = '\0';
}

void putText(char* field, std::size_t width, const std::string& text) {
    std::memcpy(field, text.data(), std::min(width, text.size()));
}

} // namespace

std::string TarWriter::header(const std::string& path, std::uint64_t size, std::int64_t mtime,
                              char type, const std::string& linkTarget) {
    std::string prefix, name = path;
    if (path.size() > 100) {
        // ustar's split: a prefix of up to 155 bytes and a name of up to 100, at a '/'.
        const auto cut = path.rfind('/', 155);
        if (cut == std::string::npos || path.size() - cut - 1 > 100 || cut == 0)
            throw std::invalid_argument(path + ": a path ustar cannot hold (over 255 bytes, or a "
                                               "name over 100)");
        prefix = path.substr(0, cut);
        name = path.substr(cut + 1);
    }
    if (size > 077777777777ULL) throw std::invalid_argument(path + ": larger than 8 GiB");
    char block[512] = {};
    putText(block, 100, name);
    putOctal(block + 100, 8, 0644);
    putOctal(block + 108, 8, 0);
    putOctal(block + 116, 8, 0);
    putOctal(block + 124, 12, size);
    putOctal(block + 136, 12, static_cast<std::uint64_t>(mtime < 0 ? 0 : mtime));
    block[156] = type;
    putText(block + 157, 100, linkTarget);
    std::memcpy(block + 257,
                "ustar\0"
                "00",
                8);
    putText(block + 345, 155, prefix);
    std::memset(block + 148, ' ', 8);
    unsigned sum = 0;
    for (unsigned char c : block)
        sum += c;
    putOctal(block + 148, 7, sum); // six digits and a NUL, then a space, as tar writes it
    block[155] = ' ';
    return std::string(block, sizeof block);
}

void TarWriter::addFile(const std::string& path, std::string_view content) {
    m_out.write(header(path, content.size(), m_mtime));
    m_out.write(content);
    const std::size_t pad = (512 - content.size() % 512) % 512;
    m_out.write(std::string(pad, '\0'));
}

void TarWriter::finish() {
    m_out.write(std::string(1024, '\0'));
}

} // namespace sv
