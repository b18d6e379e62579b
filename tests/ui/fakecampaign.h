#pragma once
// A campaign of the fake workload (the launcher tests' fakeworkload.py) under mpirun: real
// processes, logs, journal and sweeps, in seconds and without loading the CPU.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/workloadprofile.h"

#include <QStringList>
#include <fstream>
#include <string>
#include <vector>

namespace sv::test {

// interval: seconds between the workload's speed lines.
inline launcher::Campaign fakeCampaign(const std::string& dir,
                                       const std::vector<std::string>& topologies, int repeats,
                                       const std::string& interval = "0.01",
                                       const std::string& logRoot = "logs/fake") {
    const std::string profile = dir + "/fake-profile.json";
    std::ofstream(profile)
        << R"J({"name": "fake", "label": "fake workload (tests)", "model": "r50", "logRoot": ")J"
        << logRoot << R"J(",
      "defaultLauncher": "mpirun",
      "launchers": {"mpirun": ["mpirun", "--tag-output", "--allow-run-as-root", "--oversubscribe",
                               "-np", "{ranks}", "-H", "{host_slots}", "{mpi_env}"]},
      "program": ["/usr/bin/python3", ")J"
        << SCALEVIEW_FAKE_WORKLOAD << R"J("],
      "args": ["--iterations", "{iterations}", "--batch", "{batch}", "--interval", ")J"
        << interval << R"J("]})J";
    launcher::Campaign c;
    c.profile = profile;
    for (const auto& t : topologies)
        c.topologies.push_back(*parseTopology(t));
    c.batchSizes = {2};
    c.repeats = repeats;
    c.iterations = 20;
    c.warmup = 2;
    c.cooldownSeconds = 0;
    c.outputDir = dir + "/out";
    return c;
}

inline QStringList plannedIds(const launcher::Campaign& c) {
    std::string error;
    const auto profile = launcher::loadProfile(c.profile, &error);
    QStringList ids;
    for (const auto& r : launcher::planRuns(c, *profile))
        ids << QString::fromStdString(r.id);
    return ids;
}

} // namespace sv::test
