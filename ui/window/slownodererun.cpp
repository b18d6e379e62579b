#include "ui/window/slownodererun.h"

#include "async/backgroundtask.h"
#include "launcher/campaign/campaign.h"

#include "ui/analysis/loadcontroller.h"
#include "ui/run/campaignform.h"
#include "ui/run/runpanel.h"
#include "ui/window/pagestack.h"

#include <QDir>
#include <QLabel>

#include <optional>
#include <string>

namespace sv::ui {

namespace {

struct ReadCampaign {
    std::optional<launcher::Campaign> campaign;
    std::string error;
};

} // namespace

SlowNodeRerun::SlowNodeRerun(LoadController* loader, PageStack* pages, QLabel* status,
                             QObject* parent)
    : QObject(parent), m_loader(loader), m_pages(pages), m_status(status) {}

void SlowNodeRerun::rerunWithout(const QString& node, const QString& why) {
    const auto& found = m_loader->campaignWindow();
    if (!found.window) {
        m_status->setText(tr("No campaign.json holds these logs: there is no campaign to run "
                             "again without %1")
                              .arg(node));
        return;
    }
    const std::string file = found.window->file;
    async::runInBackground(
        this,
        [file] {
            ReadCampaign r;
            r.campaign = launcher::loadCampaign(file, &r.error);
            return r;
        },
        [this, node, why, file](ReadCampaign r) {
            std::optional<std::string> refused;
            if (r.campaign)
                refused = launcher::excludeNode(*r.campaign, node.toStdString(), why.toStdString());
            if (!r.campaign || refused) {
                m_status->setText(
                    tr("Not rerun without %1: %2: %3")
                        .arg(node, QString::fromStdString(file),
                             QString::fromStdString(r.campaign ? *refused : r.error)));
                return;
            }
            r.campaign->outputDir = CampaignForm::freshOutputDir().toStdString();
            m_pages->runPanel()->form()->setCampaign(*r.campaign);
            m_pages->showPage(PageStack::Run);
            m_status->setText(
                tr("The campaign of %1 without %2, on the Run tab: check it, then "
                   "Run")
                    .arg(QDir::toNativeSeparators(QString::fromStdString(file)), node));
        },
        async::backgroundPool());
}

} // namespace sv::ui
