// The Run panel's container fields: the ngc-mxnet-rn50 profile offers the seed's image and data
// mount, the fields become the campaign's container block (and back), and what the form has
// no field for (options, keep) stays as the campaign had it.

#include "tests/ui/uifixture.h"

#include "ui/run/campaignform.h"
#include "ui/run/runpanel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QTemporaryDir>

#include <algorithm>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

TEST(RunContainer, TheNgcProfileOffersTheSeedsImageAndDataMount) {
    AppWindow w;
    ui::CampaignForm* form = w.window.runPanel()->form();
    EXPECT_TRUE(form->containerImage()->text().isEmpty()); // the local profile runs on the host
    EXPECT_EQ(form->campaign().container.runtime, "none");
    form->profileChoice()->setCurrentText(QStringLiteral("ngc-mxnet-rn50"));
    EXPECT_EQ(form->containerImage()->text(), QStringLiteral("nvidia_rn50_mx:20.03"));
    const launcher::Campaign c = form->campaign();
    EXPECT_TRUE(c.container.managed());
    EXPECT_EQ(c.container.image, "nvidia_rn50_mx:20.03");
    ASSERT_EQ(c.container.mounts.size(), 1u);
    EXPECT_EQ(c.container.mounts[0].target, "/data/imagenet/train-val-recordio-passthrough");
    EXPECT_TRUE(c.container.mounts[0].readOnly);
    for (const auto& p : c.validate())
        EXPECT_EQ(p.find("container"), std::string::npos) << p;
}

TEST(RunContainer, FieldsBecomeTheContainerBlockAndBack) {
    AppWindow w;
    ui::CampaignForm* form = w.window.runPanel()->form();
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    c.container.runtime = "docker";
    c.container.image = "sv/empty:1";
    c.container.mounts = {{"/srv/data", "/data", true}, {"/srv/out", "/out", false}};
    c.container.runArgs = {"--tmpfs=/tmp"};
    c.container.keep = true;
    form->setCampaign(c);
    EXPECT_EQ(form->containerImage()->text(), QStringLiteral("sv/empty:1"));
    EXPECT_EQ(form->containerMounts()->text(), QStringLiteral("/srv/data:/data:ro, /srv/out:/out"));
    launcher::Campaign back = form->campaign();
    EXPECT_EQ(back.container.mounts, c.container.mounts);
    EXPECT_EQ(back.container.runArgs, c.container.runArgs); // no field: kept
    EXPECT_TRUE(back.container.keep);

    // A typo in a mount is the campaign check's to name, not silently dropped.
    form->containerMounts()->setText(QStringLiteral("/srv/data:/data:rx"));
    const auto problems = form->campaign().validate();
    EXPECT_TRUE(std::any_of(problems.begin(), problems.end(), [](const std::string& p) {
        return p.find("container.mounts[0]") != std::string::npos;
    }));
    // No image: back to a running container's name, or none.
    form->containerImage()->clear();
    form->containerMounts()->clear();
    form->runningContainer()->setText(QStringLiteral("mxnet_dlperf"));
    back = form->campaign();
    EXPECT_EQ(back.container.runtime, "docker");
    EXPECT_EQ(back.container.name, "mxnet_dlperf");
    EXPECT_FALSE(back.container.managed());
    EXPECT_TRUE(back.container.runArgs.empty());
    EXPECT_FALSE(back.container.keep);
}
