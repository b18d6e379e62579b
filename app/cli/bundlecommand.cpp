#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "app/cli/measurearguments.h"
#include "version.h"

#include "core/model/outputtext.h"
#include "launcher/session/campaignbundle.h"

#include <cstdio>
#include <filesystem>

namespace sv::cli {
namespace {

namespace fs = std::filesystem;

int usage(const char* command, const std::string& message) {
    std::fprintf(stderr, "scaleview-cli %s: %s\n(see scaleview-cli %s --help)\n", command,
                 terminalText(message).c_str(), command);
    return 2;
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
    CampaignBundleOptions o;
    o.campaignDir = args.positional()[0];
    o.output = *output;
    if (!fs::is_directory(o.campaignDir))
        return usage("bundle", o.campaignDir.string() + " is not a directory");
    LoadOptions load;
    const MeasureArguments given = readMeasureArguments(args, &o.method, &load);
    o.threads = load.threads;
    o.warmup = given.warmup;
    o.iterations = given.iterations;
    o.logFormat = args.value("log-format").value_or("");
    if (args.error()) return usage("bundle", *args.error());
    o.signingKey = args.value("sign").value_or("");
    o.scaleviewVersion = SCALEVIEW_VERSION;
    const CampaignBundleWritten written = writeCampaignBundle(o);
    if (written.badWindow) return usage("bundle", *written.badWindow);
    if (written.error) {
        std::fprintf(stderr, "scaleview-cli bundle: %s\n", terminalText(*written.error).c_str());
        return 2;
    }
    std::fprintf(stderr, "bundled %zu files (%llu bytes) of %s into %s (%zu bytes)\n",
                 written.manifest.files.size(),
                 static_cast<unsigned long long>(written.manifest.totalSize()),
                 terminalText(o.campaignDir.string()).c_str(), terminalText(*output).c_str(),
                 written.bytes);
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
    const CampaignBundleCheck c = checkCampaignBundle(bundle, *folder, SCALEVIEW_VERSION, allowed);
    const BundleVerdict& v = c.verdict;
    const std::vector<std::string>& reasons = c.reasons;
    const std::string signedBy = c.signedBy.empty() ? "" : "; signed with " + c.signedBy;
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
