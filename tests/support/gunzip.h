#pragma once
// A gzip member inflated whole, for tests that open a bundle by hand (zlib, no bounds: the
// tests' own small bundles only).

#include <string>
#include <zlib.h>

namespace sv::test {

inline std::string gunzip(const std::string& gz) {
    z_stream s{};
    inflateInit2(&s, 16 + 15);
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    s.avail_in = static_cast<uInt>(gz.size());
    std::string out;
    char buf[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK) {
        s.next_out = reinterpret_cast<Bytef*>(buf);
        s.avail_out = sizeof buf;
        rc = inflate(&s, Z_NO_FLUSH);
        out.append(buf, sizeof buf - s.avail_out);
    }
    inflateEnd(&s);
    return out;
}

} // namespace sv::test
