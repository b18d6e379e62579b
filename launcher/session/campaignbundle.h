#pragma once
// A campaign shared as one bundle, the way both front ends do it: `scaleview-cli bundle` and
// `verify`, and the app's File › Export › Campaign Bundle… and File › Open of a .svbundle call
// these, so the window, the origin, the signature and the checks are chosen in one place.
// Blocking (it reads every log, and signing and checking run ssh-keygen): the app calls them off
// the GUI thread.

#include "core/bundle/bundleverify.h"
#include "core/bundle/bundlewriter.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct CampaignBundleOptions {
    std::filesystem::path campaignDir;
    std::filesystem::path output;
    // A file at output is replaced only when the user said so (the app's file chooser asks);
    // otherwise a bundle is written new or not at all.
    bool replace = false;
    // The window as summarize chooses it: each value given wins, then the campaign's, then
    // DLPerf's.
    Method method = Method::Time;
    std::optional<int> warmup, iterations;
    int threads = 0; // 0: LoadOptions' default
    std::string logFormat;
    std::filesystem::path signingKey; // empty: not signed
    std::string scaleviewVersion;
};

struct CampaignBundleWritten {
    // What stopped it: a bad window is the caller's (a usage error on the command line), the
    // rest the bundle's or the disk's.
    std::optional<std::string> badWindow, error;
    BundleManifest manifest;
    std::size_t bytes = 0; // the .svbundle's size
};

CampaignBundleWritten writeCampaignBundle(const CampaignBundleOptions& options);

// A bundle checked the whole way (verifyBundle) and its signature, when there is one or when
// allowedSigners asks for one: a reason like any other.
struct CampaignBundleCheck {
    BundleVerdict verdict;
    std::vector<std::string> reasons; // empty: verified
    std::string signedBy;             // "ED25519 key SHA256:… (principal)"; empty: not signed
    bool verified() const { return !verdict.opened.refused && reasons.empty(); }
};

CampaignBundleCheck checkCampaignBundle(const std::filesystem::path& bundle,
                                        const std::filesystem::path& privateFolder,
                                        const std::string& scaleviewVersion,
                                        const std::filesystem::path& allowedSigners = {});

// A bundle's manifest signature checked for the history's import (history::readBundleCampaign's
// check, for `history import` and the History page alike): the signing key's name ("ED25519 key
// SHA256:… (principal)"), or nullopt with *why.
std::optional<std::string> bundleSigner(const std::string& manifest, const std::string& signature,
                                        const std::filesystem::path& allowedSigners,
                                        std::string* why);

} // namespace sv
