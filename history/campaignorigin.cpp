#include "history/campaignorigin.h"

#include <filesystem>

namespace sv::history {

std::string describeOrigin(const CampaignOrigin& origin) {
    // The file's name says which bundle; its folder is only where it lay when imported.
    const std::string name = std::filesystem::path(origin.bundleFile).filename().string();
    return "from " + (name.empty() ? std::string("a bundle") : name) + ", bundled by " +
           origin.bundledBy + " on " + origin.bundledAt +
           (origin.signatureKey.empty() ? std::string(", not signed")
                                        : ", signed with " + origin.signatureKey);
}

} // namespace sv::history
