#pragma once
// scaleview-cli run's options: what a campaign file says, given on the command line instead.

#include "app/cli/arguments.h"
#include "launcher/campaign/campaign.h"

#include <optional>
#include <set>
#include <string>

namespace sv::cli {

// The options of `run` that take a value, and its flags (--dry-run among them).
const std::set<std::string>& campaignValueOptions();
const std::set<std::string>& campaignFlagOptions();

// The campaign the options describe; nullopt with *error naming the option and what is wrong
// with it (checking the campaign as a whole is Campaign::validate's).
std::optional<launcher::Campaign> campaignFromOptions(Arguments& a, std::string* error);
// --probes and --exclude-node HOST (repeatable, with --exclude-reason TEXT), on a campaign from
// options or from a file; false with *error naming the option.
bool applyProbeOptions(const Arguments& a, launcher::Campaign& c, std::string* error);

} // namespace sv::cli
