#include "core/bundle/tarreader.h"

#include "core/bundle/bundleerror.h"
#include "core/bundle/bundlepath.h"
#include "core/bundle/gzipreader.h"
#include "core/bundle/tarwriter.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace sv {
namespace {

// An octal field: digits, then NULs or spaces. GNU's base-256 sizes are refused: no bundle
// file is that large.
std::uint64_t octal(const char* field, std::size_t width, const std::string& what) {
    std::uint64_t v = 0;
    std::size_t i = 0;
    while (i < width && field[i] == ' ')
        ++i;
    std::size_t digits = 0;
    for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i, ++digits)
        v = v * 8 + static_cast<std::uint64_t>(field[i] - '0');
    for (; i < width; ++i)
        if (field[i] != '\0' && field[i] != ' ') digits = 0;
    if (digits == 0) throw BundleRefused(what + " is not an octal number");
    return v;
}

std::string text(const char* field, std::size_t width) {
    return std::string(field, strnlen(field, width));
}

std::string kindName(char type) {
    switch (type) {
    case '1':
        return "a hard link";
    case '2':
        return "a symbolic link";
    case '3':
        return "a character device";
    case '4':
        return "a block device";
    case '5':
        return "a directory";
    case '6':
        return "a FIFO";
    case 'x':
    case 'g':
        return "a pax extended header";
    case 'L':
    case 'K':
        return "a GNU long-name header";
    default:
        return std::string("an entry of type '") + type + "'";
    }
}

void checkSum(const char* block, const std::string& at) {
    const std::uint64_t recorded = octal(block + 148, 8, at + "'s checksum");
    std::uint64_t sum = 0;
    for (int i = 0; i < 512; ++i)
        sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(block[i]);
    if (sum != recorded) throw BundleRefused(at + "'s checksum does not match its bytes");
}

} // namespace

std::optional<TarEntry> TarReader::next() {
    if (m_pending > 0) readData([](std::string_view) {});
    char block[512];
    const std::uint64_t position = m_in.position();
    m_in.readExactly(block, sizeof block);
    // Named by what it says it is, even when damaged: the entry is what a user looks for.
    const std::string at =
        "the tar header of '" + text(block, 100) + "' at byte " + std::to_string(position);
    const bool zero = std::all_of(block, block + 512, [](char c) { return c == 0; });
    if (zero) {
        m_in.readExactly(block, sizeof block);
        if (!std::all_of(block, block + 512, [](char c) { return c == 0; }))
            throw BundleRefused("the archive's end (two zero blocks) is damaged");
        m_in.finish();
        return std::nullopt;
    }
    if (std::memcmp(block + 257,
                    "ustar\0"
                    "00",
                    8) != 0)
        throw BundleRefused(at + " is not a POSIX ustar header");
    checkSum(block, at);
    const std::string name = text(block, 100), prefix = text(block + 345, 155);
    TarEntry e;
    e.path = prefix.empty() ? name : prefix + "/" + name;
    const char type = block[156];
    if (type != '0' && type != '\0')
        throw BundleRefused(e.path + ": " + kindName(type) +
                            " (a bundle holds regular files only)");
    if (auto bad = bundlePathProblem(e.path)) throw BundleRefused(e.path + ": the path " + *bad);
    e.size = octal(block + 124, 12, e.path + "'s size");
    // Every other byte as a bundle's header is written (owner, mode, time's form, the fields'
    // terminators, the checksum's own): no byte of a header goes unchecked.
    const auto mtime = static_cast<std::int64_t>(octal(block + 136, 12, e.path + "'s time"));
    const std::string expected = TarWriter::header(e.path, e.size, mtime);
    const auto differs = std::mismatch(expected.begin(), expected.end(), block).first;
    if (differs != expected.end())
        throw BundleRefused(e.path + ": its tar header's byte " +
                            std::to_string(differs - expected.begin()) +
                            " is not as a bundle's header is written");
    m_pending = e.size;
    m_current = e.path;
    return e;
}

void TarReader::readData(const std::function<void(std::string_view)>& sink) {
    std::vector<char> buffer(1 << 16);
    const std::uint64_t size = m_pending;
    while (m_pending > 0) {
        const std::size_t piece =
            static_cast<std::size_t>(std::min<std::uint64_t>(m_pending, buffer.size()));
        m_in.readExactly(buffer.data(), piece);
        sink(std::string_view(buffer.data(), piece));
        m_pending -= piece;
    }
    const std::size_t pad = static_cast<std::size_t>((512 - size % 512) % 512);
    char padding[512];
    m_in.readExactly(padding, pad);
    if (!std::all_of(padding, padding + pad, [](char c) { return c == 0; }))
        throw BundleRefused(m_current + ": the padding after its data is not zero");
}

} // namespace sv
