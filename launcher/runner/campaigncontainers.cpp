#include "launcher/runner/campaigncontainers.h"

#include "launcher/container/containerlifecycle.h"
#include "launcher/container/containersshd.h"

#include <QProcess>
#include <utility>

namespace sv::launcher {

CampaignContainers::CampaignContainers(const CommandBuilder& builder, const Journal& journal,
                                       QObject* context, Said said)
    : m_builder(builder), m_journal(journal), m_context(context), m_said(std::move(said)) {}

void CampaignContainers::start(std::function<bool()> stop,
                               std::function<void(std::string failure)> done) {
    // From here on the campaign's end removes them, also what a start that failed half-way left
    // (the campaign's ssh keys too).
    m_up = true;
    const bool sshd = m_builder.containerSsh().needed();
    // Each step says what it did; a failure ends the start, as does stop() between steps.
    auto then = [this, stop, done](std::function<void()> next) {
        return [this, stop, done, next = std::move(next)](ContainerLifecycle::Outcome o) {
            for (const auto& m : o.messages)
                m_said(m);
            if (!o.failure.empty() || stop()) return done(o.failure);
            next();
        };
    };
    // Multi-node: the containers reach each other through an sshd in each, started once they run.
    auto afterStart = [this, sshd, then, done] {
        if (!sshd) return done({});
        ContainerSshd::start(m_builder, m_context, then([done] { done({}); }));
    };
    auto startAll = [this, then, afterStart] {
        m_said("starting a container of " + m_builder.containers().image() + " on every host");
        ContainerLifecycle::start(m_builder, m_journal, m_context, then(afterStart));
    };
    // The keys go to every host before its container starts (docker would make a missing
    // campaign directory there, owned by root).
    if (!sshd) return startAll();
    ContainerSshd::prepare(m_builder, m_context, then(startAll));
}

void CampaignContainers::remove(std::function<void()> done) {
    m_up = false;
    const ContainerCommands& containers = m_builder.containers();
    const ContainerSsh& ssh = m_builder.containerSsh();
    if (containers.keep()) {
        for (int h = 0; h < ContainerLifecycle::hostCount(m_builder); ++h)
            m_said("kept the container " + containers.name(h) + " on " + m_builder.hostName(h) +
                   " (keep); remove it with docker rm -f " + containers.name(h));
        // Their sshd reads the host key at each connection: the keys stay with them.
        if (ssh.needed())
            m_said("kept the campaign's ssh keys in " + ssh.dir() +
                   " on every host with the containers' sshd (port " + std::to_string(ssh.port()) +
                   "); remove them with rm -rf " + ssh.dir() + " after the containers");
        return done();
    }
    auto said = [this](std::function<void()> next) {
        return [this, next = std::move(next)](ContainerLifecycle::Outcome o) {
            for (const auto& m : o.messages)
                m_said(m);
            if (!o.failure.empty()) m_said(o.failure);
            next();
        };
    };
    // The keys after the containers, whose sshd goes with them.
    ContainerLifecycle::remove(m_builder, m_journal, m_context,
                               said([this, sshd = ssh.needed(), said, done = std::move(done)] {
                                   if (!sshd) return done();
                                   ContainerSshd::remove(m_builder, m_context, said(done));
                               }));
}

void CampaignContainers::abandon() const {
    // The containers go whatever the phase: removing one ends everything in it.
    if (!m_up || m_builder.containers().keep()) return;
    const auto limit = m_builder.campaign().connectTimeout() + std::chrono::seconds(30);
    auto removals = ContainerLifecycle::removals(m_builder);
    if (m_builder.containerSsh().needed())
        for (auto& argv : ContainerSshd::removals(m_builder))
            removals.push_back(std::move(argv));
    for (const auto& argv : removals) {
        QStringList args{QStringLiteral("-s"), QStringLiteral("KILL"),
                         QString::number(limit.count())};
        for (const auto& a : argv)
            args << QString::fromStdString(a);
        QProcess::startDetached(QStringLiteral("timeout"), args);
    }
}

} // namespace sv::launcher
