// The Run panel's adaptive repeats: the form's option round-trips a campaign (and leaves a
// fixed one fixed), and the monitor shows top-ups as they start and the campaign ETA as a range.

#include "tests/ui/uifixture.h"

#include "launcher/campaign/campaigndiff.h"
#include "launcher/campaign/runprogress.h"
#include "ui/run/campaignform.h"
#include "ui/run/runprogressview.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QProgressBar>
#include <QSpinBox>
#include <QTableWidget>
#include <gtest/gtest.h>

using namespace sv;

TEST(AdaptiveForm, TheRepeatsOptionRoundTripsAnAdaptiveCampaignAndLeavesAFixedOneFixed) {
    ui::CampaignForm form;
    launcher::Campaign fixed = ui::CampaignForm::defaultCampaign();
    form.setCampaign(fixed);
    EXPECT_FALSE(form.adaptiveRepeats()->isChecked());
    EXPECT_FALSE(form.targetCi()->isEnabled());
    EXPECT_FALSE(form.campaign().adaptive());
    EXPECT_TRUE(launcher::campaignDifferences(fixed, form.campaign()).empty());

    launcher::Campaign adaptive = fixed;
    adaptive.repeats = 3;
    adaptive.repeatsMax = 15;
    adaptive.targetCiPct = 0.05;
    form.setCampaign(adaptive);
    EXPECT_TRUE(form.adaptiveRepeats()->isChecked());
    EXPECT_TRUE(form.repeatsMax()->isEnabled());
    EXPECT_EQ(form.repeatsMax()->value(), 15);
    EXPECT_EQ(form.targetCi()->text(), QStringLiteral("0.050 %")); // shown as it is
    const auto shown = form.campaign();
    EXPECT_EQ(shown.repeats, 3);
    EXPECT_EQ(shown.maxRepeats(), 15);
    EXPECT_EQ(shown.targetCiPct, 0.05);
    const auto diff = launcher::campaignDifferences(adaptive, shown);
    EXPECT_TRUE(diff.empty()) << diff.front();

    form.targetCi()->setValue(2.5);
    form.repeatsMax()->setValue(9);
    EXPECT_EQ(form.campaign().targetCiPct, 2.5);
    EXPECT_EQ(form.campaign().maxRepeats(), 9);
    EXPECT_TRUE(form.campaign().validate().empty());
    form.adaptiveRepeats()->setChecked(false);
    EXPECT_FALSE(form.campaign().adaptive());
    EXPECT_EQ(form.campaign().maxRepeats(), 3);
    EXPECT_TRUE(form.campaign().validate().empty());
}

TEST(AdaptiveForm, TheMonitorAddsTopUpsAsTheyStartAndShowsTheCampaignEtaAsARange) {
    ui::RunProgressView monitor;
    monitor.setPlan(
        {QStringLiteral("bz16/1n1g/r50_b16_fp32_1"), QStringLiteral("bz16/1n1g/r50_b16_fp32_2")},
        {}, 40);
    monitor.runStarted(0, QStringLiteral("bz16/1n1g/r50_b16_fp32_1"));
    launcher::RunProgress p;
    p.total = 2;
    p.id = "bz16/1n1g/r50_b16_fp32_1";
    p.iteration = 10;
    p.iterations = 40;
    // 10 iterations in 20 s, runs of 120 s and a 30 s cooldown; 4 to 16 runs after this one.
    launcher::estimateEtas(p, 20.0, 30.0, 4, 16, 120.0, 30);
    monitor.showProgress(p);
    EXPECT_TRUE(monitor.campaignBar()->format().endsWith(QStringLiteral("ETA 11–41 min")))
        << monitor.campaignBar()->format().toStdString();
    // Fixed repeats: one figure, as before.
    launcher::estimateEtas(p, 20.0, 30.0, 4, 120.0, 30);
    monitor.showProgress(p);
    EXPECT_TRUE(monitor.campaignBar()->format().endsWith(QStringLiteral("ETA 11:00")))
        << monitor.campaignBar()->format().toStdString();
    // A top-up the plan did not have gets its row when it starts.
    monitor.runStarted(2, QStringLiteral("bz16/1n1g/r50_b16_fp32_3"));
    ASSERT_EQ(monitor.runsTable()->rowCount(), 3);
    EXPECT_EQ(monitor.runsTable()->item(2, 0)->text(), QStringLiteral("bz16/1n1g/r50_b16_fp32_3"));
    EXPECT_EQ(monitor.runsTable()->item(2, 1)->text(), QStringLiteral("running"));
}
