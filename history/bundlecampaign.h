#pragma once
// Another site's campaign from its bundle, for the history: verified first (every file and every
// figure, core/bundle/bundleverify.h), then read as a campaign with its origin. A bundle that is
// not verified is no record, and the reasons say why.

#include "history/campaignrecord.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace sv::history {

// Blocking (it extracts, hashes and recomputes): call it off the GUI thread. The private folder
// it extracts into is removed before it returns.
// checkSignature, when the bundle is signed: the signing key's name for the origin, or nullopt
// with *why (then nothing is recorded). The caller's, since checking runs ssh-keygen.
using BundleSignatureCheck = std::function<std::optional<std::string>(
    const std::string& manifest, const std::string& signature, std::string* why)>;
CampaignReading readBundleCampaign(const std::filesystem::path& bundle,
                                   const std::string& scaleviewVersion,
                                   const BundleSignatureCheck& checkSignature = {});

} // namespace sv::history
