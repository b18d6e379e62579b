#pragma once
// How a campaign ended as a whole: every run had its turn, the user cancelled, or the campaign
// could not go on (its journal or logs could not be written), with the reason in words.

#include <QMetaType>
#include <string>

namespace sv::launcher {

struct CampaignEnd {
    enum class Outcome { Done, Cancelled, Failed };
    Outcome outcome = Outcome::Done;
    std::string reason; // why it failed; empty otherwise

    bool failed() const { return outcome == Outcome::Failed; }
    bool cancelled() const { return outcome == Outcome::Cancelled; }
};

} // namespace sv::launcher

Q_DECLARE_METATYPE(sv::launcher::CampaignEnd)
