#pragma once
// Sets up and takes down the sshd of a multi-node campaign's containers: the campaign's key pair
// and host key made here (ssh-keygen into OUT/ssh, never the user's keys) and copied to OUT/ssh on
// every host before its container starts; sshd started in each container once they run; OUT/ssh
// removed everywhere after the containers. Nothing waits: done() arrives in the event loop.

#include "launcher/container/containerlifecycle.h"
#include "launcher/exec/commandbuilder.h"

#include <QObject>
#include <string>
#include <vector>

namespace sv::launcher {

class ContainerSshd {
  public:
    using Outcome = ContainerLifecycle::Outcome;
    using Done = ContainerLifecycle::Done;

    // Keys and configuration made here (what an earlier session left is replaced) and copied to
    // every host; the hosts' rendezvous addresses must be resolved.
    static void prepare(const CommandBuilder& builder, QObject* context, Done done);
    // sshd in every host's container, on that host's address and the campaign's port.
    static void start(const CommandBuilder& builder, QObject* context, Done done);
    // OUT/ssh here and on every host.
    static void remove(const CommandBuilder& builder, QObject* context, Done done);
    // The same removals as argument vectors to start detached (the app is quitting).
    static std::vector<std::vector<std::string>> removals(const CommandBuilder& builder);
};

} // namespace sv::launcher
