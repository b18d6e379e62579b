#include "core/bundle/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace sv {

struct Sha256::State {
    EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : m_state(std::make_unique<State>()) {
    m_state->ctx = EVP_MD_CTX_new();
    if (!m_state->ctx || EVP_DigestInit_ex(m_state->ctx, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 is not available from libcrypto");
}

Sha256::~Sha256() {
    EVP_MD_CTX_free(m_state->ctx);
}

void Sha256::update(std::string_view bytes) {
    if (!bytes.empty()) EVP_DigestUpdate(m_state->ctx, bytes.data(), bytes.size());
}

std::string Sha256::hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_state->ctx, digest, &length);
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        out += kDigits[digest[i] >> 4];
        out += kDigits[digest[i] & 0xf];
    }
    return out;
}

std::string Sha256::of(std::string_view bytes) {
    Sha256 h;
    h.update(bytes);
    return h.hex();
}

} // namespace sv
