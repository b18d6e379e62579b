#pragma once
// The containers a campaign starts itself (an image, not a running container's name), from the
// Runner's side: before the first run the campaign's ssh keys reach every host, a container
// starts on each and, for several nodes, its sshd; at the end they are removed (the keys after
// the containers, whose sshd goes with them) or kept and said so; and when the app quits they
// are removed by detached commands that outlive it. Each step says what it did.

#include "launcher/campaign/journal.h"
#include "launcher/exec/commandbuilder.h"

#include <QObject>
#include <functional>
#include <string>

namespace sv::launcher {

class CampaignContainers {
  public:
    using Said = std::function<void(const std::string& text)>;
    // context: whose event loop the steps answer in (and whose going away ends them).
    CampaignContainers(const CommandBuilder& builder, const Journal& journal, QObject* context,
                       Said said);

    // Whether the campaign starts its own containers.
    bool managed() const { return m_builder.containers().managed(); }
    // Started, or being started, by this session: the campaign's end removes them.
    bool up() const { return m_up; }
    // The keys, the containers, their sshd; stop() is asked between two steps (true: go no
    // further). done(failure): empty when every step that was asked for went well.
    void start(std::function<bool()> stop, std::function<void(std::string failure)> done);
    // Removes what start() started (also what a start that failed half-way left), or says that
    // it is kept (keep); done() whatever came of it, each failure said.
    void remove(std::function<void()> done);
    // The app quits: the removals, detached, each bounded by timeout(1).
    void abandon() const;

  private:
    const CommandBuilder& m_builder;
    const Journal& m_journal;
    QObject* m_context;
    Said m_said;
    bool m_up = false;
};

} // namespace sv::launcher
