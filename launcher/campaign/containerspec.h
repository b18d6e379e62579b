#pragma once
// The campaign's container block: its JSON form, the command line's SRC:DST[:ro] mounts, and
// the checks that refuse a hostile image, mount or option before any process starts.

#include "launcher/campaign/campaign.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv::launcher {

// A Docker image reference: [registry[:port]/]name[/name...][:tag][@sha256:hex]; lowercase
// name components, no leading '-', at most 255 bytes.
bool isValidImageReference(std::string_view image);
// Every problem of the block, each naming its field ("container.mounts[1].source: ...").
std::vector<std::string> validateContainer(const Container& container);
// Reads the JSON object into `out`; throws std::runtime_error naming an unknown key or a wrong
// type.
void readContainer(nlohmann::json object, Container& out);
nlohmann::json writeContainer(const Container& container);
// "SRC:DST" or "SRC:DST:ro" (or ":rw"); nullopt with the reason.
std::optional<ContainerMount> parseContainerMount(const std::string& text, std::string* error);

} // namespace sv::launcher
