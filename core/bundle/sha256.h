#pragma once
// SHA-256 of bytes fed in pieces (OpenSSL's libcrypto underneath): what a bundle's manifest
// records for each file, in the lowercase hex `sha256sum` prints.

#include <memory>
#include <string>
#include <string_view>

namespace sv {

class Sha256 {
  public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view bytes);
    // The digest of everything fed so far, as 64 lowercase hex digits; the object is spent.
    std::string hex();

    static std::string of(std::string_view bytes);

  private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace sv
