#pragma once
// Before a campaign's first run: what interrupted runs left behind is killed (by their tags,
// here and on every host), and the profile's workload script reaches every remote host at the
// same absolute path. Nothing waits: done(problems, in words) arrives in the event loop.

#include "launcher/campaign/journal.h"
#include "launcher/exec/commandbuilder.h"

#include <QObject>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sv::launcher {

class CampaignStaging {
  public:
    using Done = std::function<void(std::vector<std::string> problems)>;
    static void run(const CommandBuilder& builder, const WorkloadProfile& profile,
                    const std::map<std::string, JournalEntry>& previous, QObject* context,
                    Done done);
};

} // namespace sv::launcher
