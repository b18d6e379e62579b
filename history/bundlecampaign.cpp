#include "history/bundlecampaign.h"

#include "core/bundle/bundleverify.h"
#include "core/bundle/bundlewriter.h"

namespace sv::history {

namespace fs = std::filesystem;

CampaignReading readBundleCampaign(const fs::path& bundle, const std::string& scaleviewVersion,
                                   const BundleSignatureCheck& checkSignature) {
    CampaignReading out;
    std::string error;
    const auto folder = makePrivateFolder(&error);
    if (!folder) {
        out.error = error;
        return out;
    }
    const BundleVerdict v = verifyBundle(bundle, *folder, scaleviewVersion);
    auto reasons = v.reasons();
    // A signature is checked when there is one; one that does not hold is a reason like any.
    std::string key;
    if (!v.opened.refused && v.opened.signed_) {
        std::string why = "ScaleView cannot check signatures here";
        const auto named = checkSignature
                               ? checkSignature(v.opened.manifestText, v.opened.signature, &why)
                               : std::nullopt;
        if (named)
            key = *named;
        else
            reasons.push_back(std::string(kSignatureName) + ": " + why);
    }
    if (!reasons.empty()) {
        out.error = bundle.string() + " is not verified, so not recorded: " + reasons.front() +
                    (reasons.size() > 1 ? " (and " + std::to_string(reasons.size() - 1) +
                                              " more: scaleview-cli verify names them)"
                                        : "");
    } else {
        const BundleManifest& m = v.opened.manifest;
        const Summary summary = bundleSummary(*folder / kCampaignFolder, m.results);
        out = recordFromSummary(summary);
        if (out.record) {
            CampaignRecord& r = *out.record;
            // The extracted copy is gone when this returns: the bundle is where it lives.
            r.path = fs::absolute(bundle).lexically_normal().string();
            r.label = m.campaign;
            // Extraction gave the logs today's times; the bundle's is the nearest known.
            r.time = m.created;
            r.origin = CampaignOrigin{m.createdBy, m.created, m.scaleviewVersion, r.path, key};
        }
    }
    std::error_code ec;
    fs::remove_all(*folder, ec);
    return out;
}

} // namespace sv::history
