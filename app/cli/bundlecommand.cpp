#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "app/cli/measurearguments.h"
#include "version.h"

#include "core/bundle/bundleverify.h"
#include "core/bundle/bundlewriter.h"
#include "core/formats/formatregistry.h"
#include "core/load/campaignwindow.h"
#include "core/model/atomicfile.h"
#include "core/model/outputtext.h"
#include "launcher/exec/bundlesignature.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <unistd.h>

namespace sv::cli {
namespace {

namespace fs = std::filesystem;

int usage(const char* command, const std::string& message) {
    std::fprintf(stderr, "scaleview-cli %s: %s\n(see scaleview-cli %s --help)\n", command,
                 terminalText(message).c_str(), command);
    return 2;
}

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

// The window and method as summarize chooses them for dir; a usage error's text otherwise.
std::optional<std::string> chooseMethod(Arguments& args, BundleRequest& r) {
    const MeasureArguments given = readMeasureArguments(args, &r.method, &r.load);
    if (auto f = args.value("log-format")) {
        if (!findLogFormat(*f))
            return "--log-format must be one of " + logFormatIds() + ", not '" + *f + "'";
        r.load.logFormat = *f;
    }
    if (args.error()) return *args.error();
    const CampaignWindowLookup found = findCampaignWindow(r.campaignDir);
    const SeriesWindow chosen = seriesWindow(found, given.warmup, given.iterations);
    r.load.measure = chosen.measure;
    r.windowSource = chosen.source;
    r.campaignFile = found.window ? found.window->file : std::string();
    return validateMeasureOptions(r.load.measure);
}

} // namespace

int bundleCommand(const std::vector<std::string>& argvIn) {
    std::vector<std::string> argv = argvIn;
    for (auto& a : argv)
        if (a == "-o") a = "--output";
    Arguments args(
        argv, {"output", "method", "warmup", "iterations", "threads", "log-format", "sign"}, {});
    if (args.positional().size() != 1) return usage("bundle", "one campaign directory, please");
    const auto output = args.value("output");
    if (!output) return usage("bundle", "-o/--output NAME.svbundle is missing");
    BundleRequest r;
    r.campaignDir = args.positional()[0];
    if (!fs::is_directory(r.campaignDir))
        return usage("bundle", r.campaignDir.string() + " is not a directory");
    if (auto bad = chooseMethod(args, r)) return usage("bundle", *bad);
    r.scaleviewVersion = SCALEVIEW_VERSION;
    r.created = nowUtc();
    r.createdBy = whoAmI();
    r.mtime = static_cast<std::int64_t>(std::time(nullptr));
    if (const auto key = args.value("sign"))
        r.sign = [key](const std::string& manifest, std::string* error) {
            return signManifest(manifest, *key, error);
        };
    const BundleBuilt built = buildBundle(r);
    if (built.error) {
        std::fprintf(stderr, "scaleview-cli bundle: %s\n", terminalText(*built.error).c_str());
        return 2;
    }
    // Never over a file already there: a bundle is written new or not at all.
    AtomicWriteOptions once;
    once.replace = false;
    if (auto failed = writeFileAtomically(*output, built.bytes, once)) {
        std::fprintf(stderr, "scaleview-cli bundle: %s\n", terminalText(*failed).c_str());
        return 2;
    }
    std::fprintf(stderr, "bundled %zu files (%llu bytes) of %s into %s (%zu bytes)\n",
                 built.manifest.files.size(),
                 static_cast<unsigned long long>(built.manifest.totalSize()),
                 terminalText(r.campaignDir.string()).c_str(), terminalText(*output).c_str(),
                 built.bytes.size());
    return 0;
}

int verifyCommand(const std::vector<std::string>& argv) {
    Arguments args(argv, {"allowed-signers"}, {"quiet"});
    if (args.error()) return usage("verify", *args.error());
    const fs::path allowed = args.value("allowed-signers").value_or("");
    if (args.positional().size() != 1) return usage("verify", "one bundle file, please");
    const fs::path bundle = args.positional()[0];
    std::string error;
    const auto folder = makePrivateFolder(&error);
    if (!folder) {
        std::fprintf(stderr, "scaleview-cli verify: %s\n", terminalText(error).c_str());
        return 2;
    }
    const BundleVerdict v = verifyBundle(bundle, *folder, SCALEVIEW_VERSION);
    // The signature, when there is one (or when one is required): a reason like any other.
    std::vector<std::string> reasons = v.reasons();
    std::string signedBy;
    if (!v.opened.refused && v.opened.signed_) {
        const SignatureCheck s =
            checkManifestSignature(v.opened.manifestText, v.opened.signature, allowed);
        if (s.good)
            signedBy =
                "; signed with " + s.key + (s.principal.empty() ? "" : " (" + s.principal + ")");
        else
            reasons.push_back(std::string(kSignatureName) + ": " + s.error);
    } else if (!v.opened.refused && !allowed.empty()) {
        reasons.push_back(std::string(kSignatureName) +
                          ": not signed, and --allowed-signers asks for a signature");
    }
    std::error_code ec;
    fs::remove_all(*folder, ec);
    const std::string name = terminalText(bundle.string());
    if (v.opened.refused) {
        std::fprintf(stderr, "%s: refused: %s\n", name.c_str(),
                     terminalText(*v.opened.refused).c_str());
        return 2;
    }
    if (!args.flag("quiet"))
        for (const auto& n : v.notes)
            std::fprintf(stderr, "note: %s\n", terminalText(n).c_str());
    const BundleManifest& m = v.opened.manifest;
    if (!reasons.empty()) {
        for (const auto& r : reasons)
            std::fprintf(stdout, "%s: %s\n", name.c_str(), terminalText(r).c_str());
        std::fprintf(stdout, "%s: NOT VERIFIED (%zu differences)\n", name.c_str(), reasons.size());
        return 1;
    }
    std::fprintf(stdout,
                 "%s: verified: %zu files match the manifest and every figure of %s follows from "
                 "the logs (bundled by %s on %s with ScaleView %s%s)\n",
                 name.c_str(), m.files.size(), kResultsName, terminalText(m.createdBy).c_str(),
                 terminalText(m.created).c_str(), terminalText(m.scaleviewVersion).c_str(),
                 terminalText(signedBy).c_str());
    return 0;
}

} // namespace sv::cli
