#pragma once
// The containers a campaign starts itself (an image, not a running container's name): what an
// earlier session of the same campaign left is removed, one container per host is started, and
// at the end they are removed (unless kept). Each step is recorded in the journal. Nothing
// waits: done() arrives in the event loop.

#include "launcher/campaign/journal.h"
#include "launcher/exec/commandbuilder.h"

#include <QObject>
#include <functional>
#include <string>
#include <vector>

namespace sv::launcher {

class ContainerLifecycle {
  public:
    struct Outcome {
        std::string failure;               // empty: every host's container is up (or removed)
        std::vector<std::string> messages; // what was done, in words
    };
    using Done = std::function<void(Outcome)>;

    // Hosts that get a container: every host, or this machine.
    static int hostCount(const CommandBuilder& builder);
    static void start(const CommandBuilder& builder, const Journal& journal, QObject* context,
                      Done done);
    static void remove(const CommandBuilder& builder, const Journal& journal, QObject* context,
                       Done done);
    // The removals as argument vectors to start detached (the app is quitting).
    static std::vector<std::vector<std::string>> removals(const CommandBuilder& builder);
};

} // namespace sv::launcher
