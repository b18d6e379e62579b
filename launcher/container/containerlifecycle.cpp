#include "launcher/container/containerlifecycle.h"

#include "async/backgroundtask.h"
#include "launcher/exec/commandbatch.h"

#include <memory>

namespace sv::launcher {
namespace {

// docker rm -f prints the name of each container it removed; of one that is not there it says
// so on standard error, and still answers 0.
bool wasRemoved(const BatchResult& r, const std::string& name) {
    return r.exitCode == 0 && r.output.find(name) != std::string::npos;
}

struct Record {
    std::string action, host, name;
    std::vector<std::string> command;
};

// The journal records on the journal's own queue (fsync), then done(outcome).
void recordThen(const Journal& journal, std::vector<Record> records,
                ContainerLifecycle::Outcome outcome, QObject* context,
                ContainerLifecycle::Done done) {
    async::runInBackground(
        context,
        [journal = Journal(journal), records = std::move(records),
         outcome = std::move(outcome)]() mutable {
            for (const auto& r : records) {
                std::string error;
                if (!journal.appendContainer(r.action, r.host, r.name, r.command, &error))
                    outcome.messages.push_back(error);
            }
            return outcome;
        },
        std::move(done), async::recordQueue());
}

} // namespace

int ContainerLifecycle::hostCount(const CommandBuilder& builder) {
    return std::max<int>(1, static_cast<int>(builder.campaign().hosts.size()));
}

std::vector<std::vector<std::string>> ContainerLifecycle::removals(const CommandBuilder& builder) {
    std::vector<std::vector<std::string>> out;
    for (int h = 0; h < hostCount(builder); ++h)
        out.push_back(builder.onHost(h, builder.containers().remove(h), false));
    return out;
}

void ContainerLifecycle::start(const CommandBuilder& builder, const Journal& journal,
                               QObject* context, Done done) {
    const int hosts = hostCount(builder);
    const int shortMs = (builder.campaign().connectTimeoutSeconds + 30) * 1000;
    // Starting may have to unpack a large image's layers: minutes, not seconds.
    const int startMs = (builder.campaign().connectTimeoutSeconds + 600) * 1000;
    std::vector<BatchCommand> removes;
    for (const auto& argv : removals(builder))
        removes.push_back({argv, {}, shortMs});
    std::vector<BatchCommand> starts;
    std::vector<Record> started;
    for (int h = 0; h < hosts; ++h) {
        starts.push_back({builder.onHost(h, builder.containers().start(h), false), {}, startMs});
        started.push_back({"started", builder.hostName(h), builder.containers().name(h),
                           builder.containers().runArgv(h)});
    }
    auto names = std::make_shared<std::vector<std::string>>();
    for (int h = 0; h < hosts; ++h)
        names->push_back(builder.hostName(h));
    const ContainerCommands containers = builder.containers();
    const std::string image = containers.image();
    CommandBatch::run(std::move(removes), context, [=](std::vector<BatchResult> removed) {
        Outcome outcome;
        std::vector<Record> records;
        for (int h = 0; h < hosts; ++h)
            if (wasRemoved(removed[static_cast<std::size_t>(h)], containers.name(h))) {
                // A killed session's: rm -f names what it removed (and answers 0 either way).
                outcome.messages.push_back("removed the container " + containers.name(h) + " on " +
                                           (*names)[static_cast<std::size_t>(h)] +
                                           ", left by an earlier session of this campaign");
                records.push_back(
                    {"removed", (*names)[static_cast<std::size_t>(h)], containers.name(h), {}});
            }
        CommandBatch::run(
            starts, context,
            [=, outcome = std::move(outcome),
             records = std::move(records)](std::vector<BatchResult> results) mutable {
                for (int h = 0; h < hosts; ++h) {
                    const BatchResult& r = results[static_cast<std::size_t>(h)];
                    const std::string& host = (*names)[static_cast<std::size_t>(h)];
                    if (r.exitCode == 0) {
                        records.push_back(started[static_cast<std::size_t>(h)]);
                        outcome.messages.push_back("started the container " + containers.name(h) +
                                                   " of " + image + " on " + host);
                    } else if (outcome.failure.empty()) {
                        outcome.failure = "could not start a container of " + image + " on " +
                                          host + " (" + failureLine(r) +
                                          "); check it with 'scaleview-cli preflight'";
                    }
                }
                recordThen(journal, std::move(records), std::move(outcome), context, done);
            });
    });
}

void ContainerLifecycle::remove(const CommandBuilder& builder, const Journal& journal,
                                QObject* context, Done done) {
    const int hosts = hostCount(builder);
    const int shortMs = (builder.campaign().connectTimeoutSeconds + 30) * 1000;
    std::vector<BatchCommand> removes;
    for (const auto& argv : removals(builder))
        removes.push_back({argv, {}, shortMs});
    const ContainerCommands containers = builder.containers();
    std::vector<std::string> names;
    for (int h = 0; h < hosts; ++h)
        names.push_back(builder.hostName(h));
    CommandBatch::run(std::move(removes), context, [=](std::vector<BatchResult> results) {
        Outcome outcome;
        std::vector<Record> records;
        for (int h = 0; h < hosts; ++h) {
            const BatchResult& r = results[static_cast<std::size_t>(h)];
            const std::string& host = names[static_cast<std::size_t>(h)];
            if (wasRemoved(r, containers.name(h))) {
                records.push_back({"removed", host, containers.name(h), {}});
                outcome.messages.push_back("removed the container " + containers.name(h) + " on " +
                                           host);
            } else if (r.exitCode != 0 && outcome.failure.empty()) {
                outcome.failure = "could not remove the container " + containers.name(h) + " on " +
                                  host + " (" + failureLine(r) + "); remove it with docker rm -f " +
                                  containers.name(h);
            }
        }
        recordThen(journal, std::move(records), std::move(outcome), context, done);
    });
}

} // namespace sv::launcher
