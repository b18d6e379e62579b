#include "launcher/session/campaignbundle.h"

#include "core/formats/formatregistry.h"
#include "core/load/campaignwindow.h"
#include "core/model/atomicfile.h"
#include "launcher/exec/bundlesignature.h"

#include <cstdlib>
#include <ctime>
#include <unistd.h>

namespace sv {
namespace {

std::string nowUtc() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

// user@host: who made the bundle, as the manifest records it.
std::string whoAmI() {
    const char* user = std::getenv("USER");
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    return std::string(user && *user ? user : "unknown") + "@" + (host[0] ? host : "unknown");
}

// The request as summarize would measure the folder; the window's error otherwise.
std::optional<std::string> requestFor(const CampaignBundleOptions& o, BundleRequest& r) {
    r.campaignDir = o.campaignDir;
    r.method = o.method;
    if (o.threads > 0) r.load.threads = o.threads;
    if (!o.logFormat.empty()) {
        if (!findLogFormat(o.logFormat))
            return "--log-format must be one of " + logFormatIds() + ", not '" + o.logFormat + "'";
        r.load.logFormat = o.logFormat;
    }
    const CampaignWindowLookup found = findCampaignWindow(r.campaignDir);
    const SeriesWindow chosen = seriesWindow(found, o.warmup, o.iterations);
    r.load.measure = chosen.measure;
    r.windowSource = chosen.source;
    r.campaignFile = found.window ? found.window->file : std::string();
    return validateMeasureOptions(r.load.measure);
}

} // namespace

CampaignBundleWritten writeCampaignBundle(const CampaignBundleOptions& options) {
    CampaignBundleWritten out;
    BundleRequest r;
    if ((out.badWindow = requestFor(options, r))) return out;
    r.scaleviewVersion = options.scaleviewVersion;
    r.created = nowUtc();
    r.createdBy = whoAmI();
    r.mtime = static_cast<std::int64_t>(std::time(nullptr));
    if (!options.signingKey.empty())
        r.sign = [key = options.signingKey](const std::string& manifest, std::string* error) {
            return signManifest(manifest, key, error);
        };
    const BundleBuilt built = buildBundle(r);
    if (built.error) {
        out.error = built.error;
        return out;
    }
    AtomicWriteOptions once;
    once.replace = options.replace;
    if ((out.error = writeFileAtomically(options.output, built.bytes, once))) return out;
    out.manifest = built.manifest;
    out.bytes = built.bytes.size();
    return out;
}

CampaignBundleCheck checkCampaignBundle(const std::filesystem::path& bundle,
                                        const std::filesystem::path& privateFolder,
                                        const std::string& scaleviewVersion,
                                        const std::filesystem::path& allowedSigners) {
    CampaignBundleCheck c;
    c.verdict = verifyBundle(bundle, privateFolder, scaleviewVersion);
    const OpenedBundle& opened = c.verdict.opened;
    if (opened.refused) return c;
    c.reasons = c.verdict.reasons();
    if (opened.signed_) {
        const SignatureCheck s =
            checkManifestSignature(opened.manifestText, opened.signature, allowedSigners);
        if (s.good)
            c.signedBy = s.key + (s.principal.empty() ? "" : " (" + s.principal + ")");
        else
            c.reasons.push_back(std::string(kSignatureName) + ": " + s.error);
    } else if (!allowedSigners.empty()) {
        c.reasons.push_back(std::string(kSignatureName) +
                            ": not signed, and --allowed-signers asks for a signature");
    }
    return c;
}

std::optional<std::string> bundleSigner(const std::string& manifest, const std::string& signature,
                                        const std::filesystem::path& allowedSigners,
                                        std::string* why) {
    const SignatureCheck s = checkManifestSignature(manifest, signature, allowedSigners);
    if (!s.good) {
        if (why) *why = s.error;
        return std::nullopt;
    }
    return s.key + (s.principal.empty() ? "" : " (" + s.principal + ")");
}

} // namespace sv
