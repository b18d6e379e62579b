#include "ui/run/campaignform.h"

#include "launcher/campaign/containerspec.h"
#include "ui/models/cellvalues.h"

#include "ui/models/hosttablemodel.h"
#include "launcher/campaign/runcapacity.h"
#include "ui/run/slurmfields.h"
#include "launcher/ssh/sshconfighosts.h"
#include "launcher/campaign/workloadprofile.h"
#include "core/model/wording.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableView>
#include <QThread>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace sv::ui {
namespace {

QSpinBox* spin(int min, int max, QWidget* parent, const QString& suffix = {}) {
    auto* s = new QSpinBox(parent);
    s->setRange(min, max);
    s->setSuffix(suffix);
    // The form's own range: a campaign opened with a value beyond it widens the box instead.
    s->setProperty("svMin", min);
    s->setProperty("svMax", max);
    return s;
}

} // namespace

CampaignForm::CampaignForm(QWidget* parent)
    : QWidget(parent), m_profile(new QComboBox(this)), m_profileLabel(new QLabel(this)),
      m_launcher(new QComboBox(this)), m_hosts(new HostTableModel(this)),
      m_hostView(new QTableView(this)), m_sshConfig(new QLineEdit(this)),
      m_container(new QLineEdit(this)), m_image(new QLineEdit(this)), m_mounts(new QLineEdit(this)),
      m_custom(new QLineEdit(this)), m_customWhy(new QLabel(this)), m_importNote(new QLabel(this)),
      m_batch(spin(1, 4096, this)), m_precision(new QComboBox(this)), m_repeats(spin(1, 100, this)),
      m_adaptive(new QCheckBox(tr("&until the 95 % interval is within ±"), this)),
      m_targetCi(new QDoubleSpinBox(this)), m_repeatsMax(spin(2, 100, this)),
      m_iterations(spin(2, 100000, this)), m_warmup(spin(0, 100000, this)),
      m_cooldown(spin(0, 3600, this, tr(" s"))), m_imageSize(spin(16, 512, this, tr(" px"))),
      m_outputDir(new QLineEdit(this)), m_where(new QComboBox(this)),
      m_probes(new QCheckBox(tr("&Probe each case first: where its scaling goes"), this)),
      m_slurm(new SlurmFields(this)) {
    fillChoices();
    layOut();
    connectFields();
    setCampaign(defaultCampaign());
}

// The choices of the combo boxes, and the hints of the fields that need one.
void CampaignForm::fillChoices() {
    m_where->addItem(tr("This machine"), QStringLiteral("local"));
    m_where->addItem(tr("SSH hosts"), QStringLiteral("ssh"));
    m_where->addItem(tr("Slurm cluster"), QStringLiteral("slurm"));
    for (const auto& name : launcher::builtinProfileNames())
        m_profile->addItem(QString::fromStdString(name));
    m_profileLabel->setWordWrap(true);
    // Text to read, in the text's colour: grey read as a disabled field.
    m_profileLabel->setStyleSheet(QString());
    m_precision->addItem(tr("fp32"), QStringLiteral("fp32"));
    m_precision->addItem(tr("fp16 (AMP)"), QStringLiteral("fp16"));
    m_precision->addItem(tr("fp16 without AMP"), QStringLiteral("fp16-noamp"));
    m_container->setPlaceholderText(tr("a running container's name (docker exec), or none"));
    m_image->setPlaceholderText(tr("none: run on the host itself"));
    m_image->setToolTip(tr("The launcher starts a container of this image on every host, runs "
                           "each run inside it and removes it at the end"));
    m_mounts->setPlaceholderText(tr("SOURCE:TARGET[:ro], … (host directories in the container)"));
    m_imageSize->setToolTip(tr("Synthetic image side for the CPU workload (224 is ImageNet's; "
                               "small keeps CPU runs short)"));
    m_probes->setToolTip(tr("Before each multi-device case's first repeat: each node alone and an "
                            "all-reduce of the gradient across its ranks (probes.json), so that "
                            "the Speedup page can split its scaling loss into measured parts"));
}

void CampaignForm::layOut() {
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // What is measured first (the workload, the topologies and the four numbers every campaign
    // sets), so that a 700-pixel window shows them; where it runs and how, after.
    form->addRow(tr("&Workload"), m_profile);
    form->addRow(QString(), m_profileLabel);
    form->addRow(tr("Topologies"), buildTopologies());
    form->addRow(tr("&Batch size per device"), m_batch);
    form->addRow(tr("Precisio&n"), m_precision);
    form->addRow(tr("Re&peats"), buildRepeats());
    form->addRow(tr("&Iterations"), m_iterations);
    form->addRow(tr("Warm&up iterations"), m_warmup);
    form->addRow(tr("W&here"), m_where);
    m_hostsRow = buildHosts();
    form->addRow(tr("Hosts"), m_hostsRow);
    form->addRow(tr("Slurm"), m_slurm);
    m_useContainer = new QCheckBox(tr("Run in a docker container"), this);
    m_useContainer->setObjectName(QStringLiteral("useContainer"));
    form->addRow(tr("Container"), m_useContainer);
    form->addRow(tr("Container ima&ge"), m_image);
    form->addRow(tr("&Container mounts"), m_mounts);
    form->addRow(tr("Or running con&tainer"), m_container);
    m_form = form;
    form->addRow(tr("&Launcher"), m_launcher);
    form->addRow(tr("C&ooldown between runs"), m_cooldown);
    form->addRow(tr("Image si&ze"), m_imageSize);
    auto* out = new QHBoxLayout;
    out->addWidget(m_outputDir, 1);
    auto* browse = new QPushButton(tr("B&rowse…"), this);
    out->addWidget(browse);
    form->addRow(tr("Output directory"), out);
    form->addRow(QString(), m_probes);
    setLayout(form);
    connect(browse, &QPushButton::clicked, this, &CampaignForm::chooseOutputDir);
}

// Every field's change is an edit; where it runs shows and hides the rows that apply.
void CampaignForm::connectFields() {
    // The tick shows the container rows; unticked, they are emptied (no container is used),
    // and a row given text (a campaign opened, a paste) ticks it.
    connect(m_useContainer, &QCheckBox::toggled, this, [this](bool on) {
        if (!on)
            for (QLineEdit* e : {m_image, m_mounts, m_container})
                e->clear();
        showWhere();
        emit edited();
    });
    for (QLineEdit* e : {m_image, m_mounts, m_container})
        connect(e, &QLineEdit::textChanged, this, [this](const QString& text) {
            if (!text.isEmpty() && !m_useContainer->isChecked()) m_useContainer->setChecked(true);
        });
    connect(m_profile, &QComboBox::currentTextChanged, this, [this] { showProfile({}); });
    connect(m_hosts, &HostTableModel::hostsEdited, this, &CampaignForm::updateAvailability);
    connect(m_custom, &QLineEdit::textChanged, this, &CampaignForm::updateAvailability);
    for (auto* s : {m_batch, m_repeats, m_iterations, m_warmup, m_cooldown, m_imageSize})
        connect(s, &QSpinBox::valueChanged, this, &CampaignForm::edited);
    for (auto* e : {m_container, m_image, m_mounts, m_outputDir, m_sshConfig})
        connect(e, &QLineEdit::textChanged, this, &CampaignForm::edited);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &CampaignForm::edited);
    connect(m_where, &QComboBox::currentIndexChanged, this, [this] {
        showWhere();
        updateAvailability();
    });
    connect(m_slurm, &SlurmFields::edited, this, &CampaignForm::edited);
    connect(m_hosts, &HostTableModel::hostsEdited, this, [this] {
        if (underSlurm()) return;
        const QSignalBlocker quiet(m_where);
        m_where->setCurrentIndex(m_hosts->rowCount() > 0 ? 1 : 0);
    });
    connect(m_launcher, &QComboBox::currentIndexChanged, this, &CampaignForm::edited);
    connect(m_probes, &QCheckBox::toggled, this, &CampaignForm::edited);
}

QWidget* CampaignForm::buildRepeats() {
    // "at least 3" over "[x] until the 95 % interval is within ± 2 %" over "at most 15": the
    // count is the minimum once the option is on. Three lines keep the form as narrow as its
    // other rows (on two, the maximum clipped at 1024 px).
    auto* box = new QWidget(this);
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    auto* first = new QHBoxLayout;
    auto* second = new QHBoxLayout;
    auto* third = new QHBoxLayout;
    column->addLayout(first);
    column->addLayout(second);
    column->addLayout(third);
    m_targetCi->setRange(0.001, 100.0);
    m_targetCi->setDecimals(1);
    m_targetCi->setSingleStep(0.5);
    m_targetCi->setSuffix(tr(" %"));
    m_adaptive->setToolTip(
        tr("Adaptive repeats: each case (topology, batch, precision) runs the number of repeats "
           "above, then one more at a time until the 95 % bootstrap interval of its median is "
           "within ± this share of the median, or the maximum is reached. Disturbed or failed "
           "runs are rerun instead of counted (up to %1 per case). The journal says why each "
           "case stopped.")
            .arg(m_base.rerunLimit));
    m_repeatsMax->setPrefix(tr("at most "));
    first->addWidget(m_repeats, 1);
    second->addWidget(m_adaptive);
    second->addWidget(m_targetCi);
    second->addStretch(1);
    // Under the tick's text, where the option it belongs to starts.
    third->addSpacing(
        m_adaptive->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, m_adaptive) +
        m_adaptive->style()->pixelMetric(QStyle::PM_CheckBoxLabelSpacing, nullptr, m_adaptive));
    third->addWidget(m_repeatsMax);
    third->addStretch(1);
    auto sync = [this] {
        const bool on = m_adaptive->isChecked();
        m_targetCi->setEnabled(on);
        m_repeatsMax->setEnabled(on);
        m_repeats->setPrefix(on ? tr("at least ") : QString());
        emit edited();
    };
    connect(m_adaptive, &QCheckBox::toggled, this, sync);
    connect(m_targetCi, &QDoubleSpinBox::valueChanged, this, &CampaignForm::edited);
    connect(m_repeatsMax, &QSpinBox::valueChanged, this, &CampaignForm::edited);
    return box;
}

QWidget* CampaignForm::buildHosts() {
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    m_hostView->setModel(m_hosts);
    m_hostView->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_hostView->verticalHeader()->hide();
    m_hostView->setTabKeyNavigation(false); // Tab moves on through the form
    m_hostView->setMinimumHeight(70);
    m_hostView->setMaximumHeight(110);
    m_hostView->setToolTip(tr("No hosts: everything runs on this machine, without SSH"));
    auto* add = new QPushButton(tr("&Add Host"), box);
    auto* remove = new QPushButton(tr("Re&move"), box);
    auto* import = new QPushButton(tr("Import &SSH config…"), box);
    m_sshConfig->setPlaceholderText(tr("SSH config file (optional, passed as -F)"));
    grid->addWidget(m_hostView, 0, 0, 1, 3);
    grid->addWidget(add, 1, 0);
    grid->addWidget(remove, 1, 1);
    grid->addWidget(import, 1, 2);
    grid->addWidget(m_sshConfig, 2, 0, 1, 3);
    m_importNote->setWordWrap(true);
    m_importNote->hide();
    grid->addWidget(m_importNote, 3, 0, 1, 3);
    connect(add, &QPushButton::clicked, this, [this] {
        launcher::Host h;
        h.name = "node" + std::to_string(m_hosts->rowCount() + 1);
        m_hosts->addHost(h);
        m_hostView->edit(m_hosts->index(m_hosts->rowCount() - 1, HostTableModel::Name));
    });
    connect(remove, &QPushButton::clicked, this,
            [this] { m_hosts->removeHost(m_hostView->currentIndex().row()); });
    connect(import, &QPushButton::clicked, this, &CampaignForm::chooseSshConfig);
    return box;
}

QWidget* CampaignForm::buildTopologies() {
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    int i = 0;
    for (const Topology& t : launcher::RunCapacity::standardTopologies()) {
        const QString name = QString::fromStdString(t.name());
        auto* check = new QCheckBox(name, box);
        check->setObjectName(QStringLiteral("topology-") + name);
        m_topologies[name] = check;
        grid->addWidget(check, i / 3, i % 3);
        // Unticking a box that cannot run greys it out (updateAvailability), which edits.
        connect(check, &QCheckBox::toggled, this, &CampaignForm::updateAvailability);
        ++i;
    }
    m_custom->setPlaceholderText(tr("more, e.g. 2n4g, 16n8g"));
    m_customWhy->setWordWrap(true);
    m_customWhy->setStyleSheet(
        QStringLiteral("color: %1;").arg(tintedText(QColor(0xe0, 0x25, 0x25)).name()));
    m_customWhy->hide();
    grid->addWidget(m_custom, 2, 0, 1, 3);
    grid->addWidget(m_customWhy, 3, 0, 1, 3);
    return box;
}

bool CampaignForm::underSlurm() const {
    return m_where->currentData().toString() == QLatin1String("slurm");
}

void CampaignForm::showWhere() {
    if (!m_form) return;
    const QString where = m_where->currentData().toString();
    // This machine needs no hosts nor SSH config; the table comes with "SSH hosts".
    m_form->setRowVisible(m_hostsRow, where == QLatin1String("ssh"));
    m_form->setRowVisible(m_slurm, where == QLatin1String("slurm"));
    // Under Slurm the image is pyxis', in the Slurm fields; docker's rows do not apply.
    // Elsewhere they show once a container is asked for.
    m_form->setRowVisible(m_useContainer, where != QLatin1String("slurm"));
    for (QWidget* row : {static_cast<QWidget*>(m_image), static_cast<QWidget*>(m_mounts),
                         static_cast<QWidget*>(m_container)})
        m_form->setRowVisible(row, where != QLatin1String("slurm") && m_useContainer->isChecked());
    // The partitions are offered as soon as the cluster is chosen (sinfo, in the background).
    if (where == QLatin1String("slurm") && m_slurm->partition()->count() == 0)
        m_slurm->refreshPartitions();
}

void CampaignForm::updateAvailability() {
    const std::string needs = m_needs;
    const launcher::RunCapacity capacity(m_hosts->hosts(),
                                         launcher::RunCapacity::localSlotsFor(needs),
                                         needs == "gpu" ? tr("GPUs") : tr("CPU cores"));
    for (auto& [name, check] : m_topologies) {
        const Topology t = *parseTopology(name.toStdString());
        // Under Slurm the partition has the nodes; preflight checks that it has enough.
        const QString why = underSlurm() ? QString() : capacity.whyNot(t);
        // A box that cannot run is greyed out, unless ticked: an opened campaign's plan is
        // never silently changed; the tick stays, in red with the reason, and can be removed.
        const QSignalBlocker quiet(check);
        check->setEnabled(why.isEmpty() || check->isChecked());
        check->setStyleSheet(why.isEmpty() || !check->isChecked()
                                 ? QString()
                                 : QStringLiteral("QCheckBox { color: %1; }")
                                       .arg(tintedText(QColor(0xe0, 0x25, 0x25)).name()));
        check->setToolTip(why.isEmpty()
                              ? tr("%1 × %2 each")
                                    .arg(QString::fromStdString(countOf(t.nodes, "node")),
                                         QString::fromStdString(countOf(t.gpusPerNode, "rank")))
                              : why);
    }
    const QStringList why = problems();
    m_customWhy->setText(why.join(QLatin1Char('\n')));
    m_customWhy->setVisible(!why.isEmpty());
    emit edited();
}

QStringList CampaignForm::problems() const {
    const std::string needs = m_needs;
    const launcher::RunCapacity capacity(m_hosts->hosts(),
                                         launcher::RunCapacity::localSlotsFor(needs),
                                         needs == "gpu" ? tr("GPUs") : tr("CPU cores"));
    QStringList out;
    for (const auto& [name, check] : m_topologies)
        if (check->isChecked() && !underSlurm())
            if (const QString why = capacity.whyNot(*parseTopology(name.toStdString()));
                !why.isEmpty())
                out << why;
    for (const QString& word : m_custom->text().split(QRegularExpression(QStringLiteral("[,\\s]+")),
                                                      Qt::SkipEmptyParts)) {
        const auto t = parseTopology(word.toStdString());
        if (!t)
            out << tr("'%1' is not a topology: write NnGg, e.g. 2n4g").arg(word);
        else if (!underSlurm() && !capacity.canRun(*t))
            out << capacity.whyNot(*t);
    }
    // A host row the campaign check rejects, named as the table shows it ("Host 2"), before Run.
    for (const std::string& p : campaign().validate())
        if (p.rfind("hosts[", 0) == 0)
            out << hostMessage(p);
        else if (p.rfind("scheduler.", 0) == 0)
            out << QString::fromStdString(p);
    return out;
}

void CampaignForm::showProfile(const std::string& launcher) {
    // Loaded once per choice (a profile may be a file): every later edit reads what it needs.
    std::string error;
    auto p = launcher::loadProfile(m_profile->currentText().toStdString(), &error);
    m_needs = p ? p->needs : std::string();
    // What is measured, in words, right under the choice.
    QString what = p ? QString::fromStdString(p->label) : QString::fromStdString(error);
    if (p && p->needs == "torch")
        // What a CPU campaign can and cannot show, before anyone reads its speedup as a finding.
        what += tr("\nOn a CPU a \"GPU\" is one core: this machine offers %1. A CPU campaign "
                   "shows the pipeline, the logs and what exchanging gradients costs, not GPU "
                   "scaling (measured on an idle 2-core machine: 1n2g at 86 % efficiency with "
                   "batch 32, where two independent processes reach 84 %).")
                    .arg(QThread::idealThreadCount());
    m_profileLabel->setText(what);
    fillLaunchers(p ? &*p : nullptr, launcher);
    m_imageSize->setEnabled(p && p->variables.count("image_size"));
    // The profile's container (the seed's image and data mount), where none is set yet.
    if (p && m_image->text().isEmpty() && m_mounts->text().isEmpty() &&
        m_container->text().isEmpty()) {
        m_image->setText(QString::fromStdString(p->containerImage));
        QStringList mounts;
        for (const auto& m : p->containerMounts)
            mounts << QString::fromStdString(m);
        m_mounts->setText(mounts.join(QStringLiteral(", ")));
        m_mounts->setCursorPosition(0); // the first mount's source shown, not the last one's end
    }
    m_defaultImageSize = p && p->variables.count("image_size")
                             ? QString::fromStdString(p->variables.at("image_size"))
                             : QString();
    updateAvailability();
}

void CampaignForm::fillLaunchers(const launcher::WorkloadProfile* profile,
                                 const std::string& wanted) {
    QSignalBlocker block(m_launcher);
    m_launcher->clear();
    if (!profile) return;
    for (const auto& [name, launcher] : profile->launchers) {
        QString text = QString::fromStdString(name);
        if (name == profile->defaultLauncher) text += tr(" (default)");
        if (launcher.perNode) text += tr(": one per node, no MPI needed");
        m_launcher->addItem(text, QString::fromStdString(name));
    }
    m_defaultLauncher = profile->defaultLauncher;
    const int at = m_launcher->findData(QString::fromStdString(wanted));
    m_launcher->setCurrentIndex(
        at >= 0 ? at : m_launcher->findData(QString::fromStdString(m_defaultLauncher)));
}

QCheckBox* CampaignForm::topologyBox(const QString& name) const {
    auto it = m_topologies.find(name);
    return it == m_topologies.end() ? nullptr : it->second;
}

void CampaignForm::importSshConfig(const QString& file) {
    const QString shown = QDir::toNativeSeparators(file);
    m_importNote->show();
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        m_importNote->setText(
            tr("Nothing imported: cannot read %1 (%2).").arg(shown, in.errorString()));
        return;
    }
    // A small text file the user picked; read at once like any dialog's file.
    constexpr int kDefaultGpus = 8; // an SSH config says nothing of GPUs
    auto hosts = launcher::hostsFromSshConfig(in.readAll().toStdString(), kDefaultGpus);
    if (hosts.empty()) {
        m_importNote->setText(tr("Nothing imported: %1 has no Host entries with a plain name "
                                 "(patterns such as * are skipped).")
                                  .arg(shown));
        return;
    }
    QStringList names;
    for (const auto& h : hosts) {
        m_hosts->addHost(h);
        names << QString::fromStdString(h.name);
    }
    m_importNote->setText(
        tr("Imported %1 from %2: %3. Each has %4 GPUs until you change its GPUs "
           "cell.")
            .arg(hosts.size() == 1 ? tr("1 host") : tr("%1 hosts").arg(hosts.size()), shown,
                 names.join(QStringLiteral(", ")))
            .arg(kDefaultGpus));
    const QString defaultConfig = QDir::home().filePath(QStringLiteral(".ssh/config"));
    if (QFileInfo(file).absoluteFilePath() != defaultConfig)
        m_sshConfig->setText(QFileInfo(file).absoluteFilePath());
}

QString CampaignForm::hostMessage(const std::string& problem) {
    static const QRegularExpression where(QStringLiteral("^hosts\\[(\\d+)\\]\\.(\\w+): (.*)$"));
    const QString text = QString::fromStdString(problem);
    const auto m = where.match(text);
    if (!m.hasMatch()) return text;
    static const std::map<QString, QString> fields{{QStringLiteral("name"), tr("name")},
                                                   {QStringLiteral("address"), tr("address")},
                                                   {QStringLiteral("user"), tr("user")},
                                                   {QStringLiteral("port"), tr("port")},
                                                   {QStringLiteral("gpus"), tr("GPUs")}};
    const auto field = fields.find(m.captured(2));
    return tr("Host %1 %2: %3")
        .arg(m.captured(1).toInt() + 1)
        .arg(field == fields.end() ? m.captured(2) : field->second, m.captured(3));
}

void CampaignForm::chooseSshConfig() {
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Import hosts from an SSH config"),
                                     QDir::home().filePath(QStringLiteral(".ssh/config")));
    if (!file.isEmpty()) importSshConfig(file);
}

void CampaignForm::chooseOutputDir() {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Output directory"), m_outputDir->text());
    if (!dir.isEmpty()) m_outputDir->setText(dir);
}

} // namespace sv::ui
