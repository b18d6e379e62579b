// CampaignForm's fields and the campaign they stand for: what the fields say as a campaign
// (what the form has no field for kept as it was), and a campaign shown in the fields.

#include "ui/run/campaignform.h"

#include "launcher/campaign/containerspec.h"
#include "launcher/campaign/runcapacity.h"
#include "ui/models/hosttablemodel.h"
#include "ui/run/slurmfields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>

#include <algorithm>
#include <cstdlib>

namespace sv::ui {
namespace {

// Shows v as it is: a spin box would clamp a value beyond its range, silently changing the plan
// of an opened campaign.
void showKept(QSpinBox* s, int v) {
    s->setRange(std::min(s->property("svMin").toInt(), v),
                std::max(s->property("svMax").toInt(), v));
    s->setValue(v);
}

} // namespace

launcher::Campaign CampaignForm::defaultCampaign() {
    launcher::Campaign c;
    c.profile = "local-cpu-rn50";
    c.topologies = {{1, 1}, {1, 2}};
    // Six runs in a few minutes on a two-core laptop, each rank one core. Batch 32: measured
    // idle on 2 cores, 1n2g reaches 86 % efficiency at 32 against 69 % at 16 (gloo's 102 MB
    // all-reduce per iteration weighs half as much); below 16 PyTorch runs ResNet-50's 1x1
    // convolutions on one thread through its slow path (8x slower here).
    c.batchSizes = {32};
    c.precisions = {"fp32"};
    c.repeats = 3;
    c.iterations = 40;
    c.warmup = 10;
    c.cooldownSeconds = 2;
    c.startTimeoutSeconds = 300;
    c.variables["image_size"] = "32";
    c.outputDir = freshOutputDir().toStdString();
    return c;
}

QString CampaignForm::freshOutputDir() {
    const QString home = QStandardPaths::writableLocation(QStandardPaths::HomeLocation);
    return QDir(home).filePath(
        QStringLiteral("ScaleView/campaigns/local-%1")
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
}

launcher::Campaign CampaignForm::campaign() const {
    launcher::Campaign c = m_base;
    c.profile = m_profile->currentText().toStdString();
    // The profile's default is left unnamed in the campaign, as the command line does.
    c.launcher = m_launcher->currentData().toString().toStdString();
    if (c.launcher == m_defaultLauncher && m_base.launcher != c.launcher) c.launcher.clear();
    // "This machine" and "SSH hosts" follow the host table (no rows: this machine).
    c.hosts = underSlurm() ? std::vector<launcher::Host>{} : m_hosts->hosts();
    c.scheduler = underSlurm() ? m_slurm->settings() : launcher::SlurmSettings{};
    c.sshConfig = m_sshConfig->text().trimmed().toStdString();
    c.container = underSlurm() ? launcher::Container{} : formContainer();
    c.topologies.clear();
    for (const Topology& t : launcher::RunCapacity::standardTopologies())
        if (m_topologies.at(QString::fromStdString(t.name()))->isChecked())
            c.topologies.push_back(t);
    for (const QString& word :
         m_custom->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts))
        if (auto t = parseTopology(word.toStdString());
            t && std::find(c.topologies.begin(), c.topologies.end(), *t) == c.topologies.end())
            c.topologies.push_back(*t);
    // The form shows one batch size and one precision; a campaign file may list several, which
    // stay as long as the one shown is left as it was.
    const std::string precision = m_precision->currentData().toString().toStdString();
    if (m_base.batchSizes.empty() || m_base.batchSizes.front() != m_batch->value())
        c.batchSizes = {m_batch->value()};
    if (m_base.precisions.empty() || m_base.precisions.front() != precision)
        c.precisions = {precision};
    c.repeats = m_repeats->value();
    if (m_adaptive->isChecked()) {
        // The target as the campaign had it while the box shows what was set (the box rounds
        // to 0.1: an opened 0.05 % stays 0.05 %).
        c.targetCiPct = m_base.adaptive() && m_targetCi->value() == m_setTargetCi
                            ? m_base.targetCiPct
                            : m_targetCi->value();
        c.repeatsMax = m_repeatsMax->value() > c.repeats ? m_repeatsMax->value() : 0;
    } else {
        c.targetCiPct = 0;
        c.repeatsMax = 0;
    }
    c.probes = m_probes->isChecked();
    c.iterations = m_iterations->value();
    c.warmup = m_warmup->value();
    c.cooldownSeconds = m_cooldown->value();
    // The image size as the campaign had it (its text, or unset for the profile's default)
    // while the box still shows what was set. A profile without one leaves the campaign's as it
    // was (unused, but not dropped).
    if (m_imageSize->isEnabled()) {
        const bool had = m_base.variables.count("image_size") > 0;
        const bool changed = m_imageSize->value() != m_setImageSize;
        if (changed || (!had && QString::number(m_imageSize->value()) != m_defaultImageSize))
            c.variables["image_size"] = std::to_string(m_imageSize->value());
    }
    c.outputDir = m_outputDir->text().trimmed().toStdString();
    return c;
}

launcher::Container CampaignForm::formContainer() const {
    // What the form has no field for (options, keep, the docker client) stays as it was.
    launcher::Container k = m_base.container;
    k.name = m_container->text().trimmed().toStdString();
    k.image = m_image->text().trimmed().toStdString();
    k.runtime = k.name.empty() && k.image.empty() ? "none" : "docker";
    if (k.image.empty()) {
        k.runArgs.clear();
        k.keep = false;
    }
    k.mounts.clear();
    for (const QString& word : m_mounts->text().split(QRegularExpression(QStringLiteral("[,\\s]+")),
                                                      Qt::SkipEmptyParts)) {
        std::string why;
        // A word that is no mount is kept as a source alone: validation names it.
        auto m = launcher::parseContainerMount(word.toStdString(), &why);
        k.mounts.push_back(m ? *m : launcher::ContainerMount{word.toStdString(), {}, false});
    }
    return k;
}

void CampaignForm::setCampaign(const launcher::Campaign& c) {
    m_base = c;
    QSignalBlocker block(this);
    // A profile given as a file is offered beside the built-in ones.
    if (m_profile->findText(QString::fromStdString(c.profile)) < 0)
        m_profile->addItem(QString::fromStdString(c.profile));
    m_profile->setCurrentText(QString::fromStdString(c.profile));
    // Also when the profile is the one already shown (no change signal then).
    showProfile(c.launcher);
    m_hosts->setHosts(c.hosts);
    m_where->setCurrentIndex(m_where->findData(c.scheduler.enabled() ? QStringLiteral("slurm")
                                               : c.hosts.empty()     ? QStringLiteral("local")
                                                                     : QStringLiteral("ssh")));
    if (c.scheduler.enabled()) m_slurm->setSettings(c.scheduler);
    showWhere();
    m_sshConfig->setText(QString::fromStdString(c.sshConfig));
    m_probes->setChecked(c.probes);
    m_container->setText(QString::fromStdString(c.container.name));
    m_image->setText(QString::fromStdString(c.container.image));
    if (m_useContainer) {
        m_useContainer->setChecked(!c.container.name.empty() || !c.container.image.empty());
        showWhere();
    }
    QStringList mounts;
    for (const auto& m : c.container.mounts)
        mounts << QString::fromStdString(m.source + ":" + m.target + (m.readOnly ? ":ro" : ""));
    m_mounts->setText(mounts.join(QStringLiteral(", ")));
    m_mounts->setCursorPosition(0); // the first mount's source shown, not the last one's end
    QStringList custom;
    for (auto& [name, check] : m_topologies)
        check->setChecked(false);
    for (const Topology& t : c.topologies) {
        auto it = m_topologies.find(QString::fromStdString(t.name()));
        if (it != m_topologies.end())
            it->second->setChecked(true);
        else
            custom << QString::fromStdString(t.name());
    }
    m_custom->setText(custom.join(QStringLiteral(", ")));
    if (!c.batchSizes.empty()) showKept(m_batch, c.batchSizes.front());
    if (!c.precisions.empty())
        m_precision->setCurrentIndex(
            qMax(0, m_precision->findData(QString::fromStdString(c.precisions.front()))));
    showKept(m_repeats, c.repeats);
    m_adaptive->setChecked(c.adaptive());
    // Enough decimals to show an opened campaign's target as it is (0.05 %, not 0.1 %).
    const double target = c.adaptive() ? c.targetCiPct : 2.0;
    m_targetCi->setDecimals(target < 0.1 ? 3 : target < 1 ? 2 : 1);
    m_targetCi->setValue(target);
    m_setTargetCi = m_targetCi->value();
    showKept(m_repeatsMax, c.adaptive() ? c.maxRepeats() : std::max(15, c.repeats));
    m_targetCi->setEnabled(c.adaptive());
    m_repeatsMax->setEnabled(c.adaptive());
    m_repeats->setPrefix(c.adaptive() ? tr("at least ") : QString());
    showKept(m_iterations, c.iterations);
    showKept(m_warmup, c.warmup);
    showKept(m_cooldown, c.cooldownSeconds);
    auto size = c.variables.find("image_size");
    showKept(m_imageSize, size != c.variables.end()        ? std::atoi(size->second.c_str())
                          : m_defaultImageSize.toInt() > 0 ? m_defaultImageSize.toInt()
                                                           : 64);
    m_setImageSize = m_imageSize->value();
    m_outputDir->setText(QString::fromStdString(c.outputDir));
    updateAvailability();
    // One notice for the whole change (the command preview follows it), not one per field.
    block.unblock();
    emit edited();
}

} // namespace sv::ui
