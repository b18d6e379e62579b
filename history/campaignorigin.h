#pragma once
// Where a campaign in the history came from when it was imported from another site's bundle:
// who bundled it and when, with which ScaleView, the bundle's file, and the signature's key.

#include <string>

namespace sv::history {

struct CampaignOrigin {
    std::string bundledBy;        // the manifest's created_by: user@host
    std::string bundledAt;        // ISO 8601 UTC
    std::string scaleviewVersion; // the ScaleView that made the bundle
    std::string bundleFile;       // the .svbundle imported, absolute
    std::string signatureKey;     // the key that signed it; empty: not signed
};

// The origin in words, as every listing shows it: "from site-a.svbundle, bundled by
// alice@site-a on 2026-11-30T10:00:00Z, signed with ED25519 key SHA256:..." (or "not signed").
// The values are another site's: a caller printing to a terminal escapes them.
std::string describeOrigin(const CampaignOrigin& origin);

} // namespace sv::history
