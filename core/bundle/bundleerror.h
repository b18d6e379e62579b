#pragma once
// Why a bundle is refused outright (unsafe, malformed, truncated, too large, a future version):
// thrown by the readers below the bundle's face and turned into a plain reason there.

#include <stdexcept>
#include <string>

namespace sv {

class BundleRefused : public std::runtime_error {
  public:
    explicit BundleRefused(const std::string& reason) : std::runtime_error(reason) {}
};

} // namespace sv
