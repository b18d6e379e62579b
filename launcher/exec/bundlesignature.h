#pragma once
// A bundle's manifest signed and checked with the user's own SSH key (`ssh-keygen -Y`, namespace
// "scaleview-bundle"): the one place both front ends sign and check, each an argument vector,
// never a shell string. Blocking (it runs ssh-keygen): the app calls it off the GUI thread.

#include <filesystem>
#include <optional>
#include <string>

namespace sv {

inline constexpr const char* kBundleSignatureNamespace = "scaleview-bundle";

struct SignatureCheck {
    bool good = false;
    std::string key;       // "ED25519 key SHA256:...", as ssh-keygen names it
    std::string principal; // who allowedSigners says the key is; empty when not asked
    std::string error;     // why it is not good, in ssh-keygen's words
};

// The signature of manifest by the private key keyFile (ssh-keygen -Y sign); nullopt with *error.
std::optional<std::string> signManifest(const std::string& manifest,
                                        const std::filesystem::path& keyFile, std::string* error);

// Checks signature over manifest: that it is good, and by which key (ssh-keygen -Y
// check-novalidate); with allowedSigners, also that the key is one it trusts, and whose
// (find-principals, then verify).
SignatureCheck checkManifestSignature(const std::string& manifest, const std::string& signature,
                                      const std::filesystem::path& allowedSigners = {});

} // namespace sv
