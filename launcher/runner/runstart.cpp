#include "launcher/runner/runstart.h"

#include "launcher/exec/shellquote.h"

#include <QRandomGenerator>
#include <QStringList>
#include <algorithm>
#include <cstdio>
#include <utility>

namespace sv::launcher {

RunStart RunStart::make(CommandBuilder& builder, const PlannedRun& run,
                        std::map<std::string, JournalEntry>& previous) {
    RunStart start;
    char tag[32];
    std::snprintf(tag, sizeof tag, "sv%016llx",
                  static_cast<unsigned long long>(QRandomGenerator::global()->generate64()));
    start.tag = tag;
    if (builder.campaign().scheduler.enabled()) {
        // No process starts here: the job script holds the launch.
        if (auto it = previous.find(run.id); it != previous.end() && !it->second.end)
            start.reattachJob = std::exchange(it->second.jobId, {});
        start.submission = slurmSubmission(builder, run, tag);
        start.argvs = {start.submission->sbatchArgv, start.submission->launchArgv};
        start.hosts = {"slurm"};
    } else {
        // The kernel's choice of a port free on this machine: for remote nodes no better guess
        // is at hand, and it moves with each run (recorded with its command line).
        if (builder.choosesMasterPort()) builder.setMasterPort(CommandBuilder::freeLocalPort());
        start.launches = builder.launches(run, tag);
        for (const Launch& l : start.launches)
            start.argvs.push_back(l.argv);
        for (int h = 0; h < std::max(1, builder.hostCount(run)); ++h)
            start.hosts.push_back(builder.hostName(h));
    }
    QStringList lines;
    for (const auto& argv : start.argvs)
        lines << QString::fromStdString(shellCommand(argv));
    start.command = lines.join(QLatin1Char('\n'));
    return start;
}

} // namespace sv::launcher
