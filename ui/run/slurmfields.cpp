#include "ui/run/slurmfields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>

namespace sv::ui {

SlurmFields::SlurmFields(QWidget* parent)
    : QWidget(parent), m_partition(new QComboBox(this)), m_account(new QLineEdit(this)),
      m_qos(new QLineEdit(this)), m_time(new QLineEdit(this)),
      m_exclusive(new QCheckBox(tr("E&xclusive nodes"), this)),
      m_gpus(new QCheckBox(tr("Ask for &GPUs per node (gres/gpu)"), this)),
      m_image(new QLineEdit(this)), m_mounts(new QLineEdit(this)), m_note(new QLabel(this)) {
    m_partition->setEditable(true);
    m_partition->setToolTip(tr("Partitions as sinfo lists them; empty: the cluster's default"));
    m_account->setPlaceholderText(tr("your default account"));
    m_qos->setPlaceholderText(tr("the partition's default"));
    m_time->setPlaceholderText(tr("the partition's limit, e.g. 01:00:00"));
    m_image->setPlaceholderText(tr("none; with pyxis e.g. nvcr.io#nvidia/mxnet:20.03-py3"));
    m_mounts->setPlaceholderText(tr("/data:/data:ro, ..."));
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto* refresh = new QPushButton(tr("Ask s&info"), this);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_partition, 1);
    row->addWidget(refresh);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Partition"), row);
    form->addRow(QString(), m_note);
    form->addRow(tr("A&ccount"), m_account);
    form->addRow(tr("&QoS"), m_qos);
    form->addRow(tr("&Time limit"), m_time);
    form->addRow(QString(), m_exclusive);
    form->addRow(QString(), m_gpus);
    form->addRow(tr("Container &image"), m_image);
    form->addRow(tr("Container &mounts"), m_mounts);

    connect(refresh, &QPushButton::clicked, this, &SlurmFields::refreshPartitions);
    connect(m_partition, &QComboBox::currentTextChanged, this, &SlurmFields::edited);
    for (auto* e : {m_account, m_qos, m_time, m_image, m_mounts})
        connect(e, &QLineEdit::textChanged, this, &SlurmFields::edited);
    for (auto* c : {m_exclusive, m_gpus})
        connect(c, &QCheckBox::toggled, this, &SlurmFields::edited);
}

launcher::SlurmSettings SlurmFields::settings() const {
    launcher::SlurmSettings s = m_base;
    s.type = "slurm";
    const QString partition = m_partition->currentText().trimmed();
    // An item shows "debug: up, 2 nodes, ..."; its data is the name.
    const int at = m_partition->findText(m_partition->currentText());
    s.partition =
        (at >= 0 && m_partition->itemData(at).isValid() ? m_partition->itemData(at).toString()
                                                        : partition)
            .toStdString();
    s.account = m_account->text().trimmed().toStdString();
    s.qos = m_qos->text().trimmed().toStdString();
    s.timeLimit = m_time->text().trimmed().toStdString();
    s.exclusive = m_exclusive->isChecked();
    s.gpus = m_gpus->isChecked();
    s.containerImage = m_image->text().trimmed().toStdString();
    s.containerMounts.clear();
    for (const QString& m : m_mounts->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!m.trimmed().isEmpty()) s.containerMounts.push_back(m.trimmed().toStdString());
    return s;
}

void SlurmFields::setSettings(const launcher::SlurmSettings& s) {
    m_base = s;
    const QSignalBlocker quiet(this);
    m_partition->setEditText(QString::fromStdString(s.partition));
    m_account->setText(QString::fromStdString(s.account));
    m_qos->setText(QString::fromStdString(s.qos));
    m_time->setText(QString::fromStdString(s.timeLimit));
    m_exclusive->setChecked(s.exclusive);
    m_gpus->setChecked(s.gpus);
    m_image->setText(QString::fromStdString(s.containerImage));
    QStringList mounts;
    for (const auto& m : s.containerMounts)
        mounts << QString::fromStdString(m);
    m_mounts->setText(mounts.join(QStringLiteral(",")));
}

void SlurmFields::refreshPartitions() {
    if (m_sinfo) return; // one question at a time
    m_sinfo = new QProcess(this);
    m_note->setText(tr("Asking sinfo for the partitions…"));
    connect(m_sinfo, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        showPartitions(status == QProcess::NormalExit ? code : -1, m_sinfo->readAllStandardOutput(),
                       QString::fromLocal8Bit(m_sinfo->readAllStandardError()).trimmed());
    });
    connect(m_sinfo, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            showPartitions(-1, {}, tr("sinfo could not be run (%1)").arg(m_sinfo->errorString()));
    });
    m_sinfo->start(QStringLiteral("sinfo"),
                   {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%P|%a|%D|%c|%G")});
}

void SlurmFields::showPartitions(int exitCode, const QByteArray& output, const QString& error) {
    if (!m_sinfo) return;
    m_sinfo->deleteLater();
    m_sinfo = nullptr;
    if (exitCode != 0) {
        m_note->setText(error.isEmpty() ? tr("sinfo failed (exit code %1)").arg(exitCode) : error);
        emit partitionsListed();
        return;
    }
    const QString typed = m_partition->currentText();
    const QSignalBlocker quiet(m_partition);
    m_partition->clear();
    int shown = 0, byDefault = -1;
    for (const QString& line : QString::fromLocal8Bit(output).split(QLatin1Char('\n'))) {
        const QStringList f = line.split(QLatin1Char('|'));
        if (f.size() < 5) continue;
        QString name = f[0];
        const bool isDefault = name.endsWith(QLatin1Char('*'));
        if (isDefault) {
            name.chop(1);
            byDefault = shown;
        }
        const QString gres = f[4] == QLatin1String("(null)") ? tr("no GPUs") : f[4];
        m_partition->addItem(
            tr("%1%2: %3, %4 nodes, %5 CPUs per node, %6")
                .arg(name, isDefault ? tr(" (default)") : QString(), f[1], f[2], f[3], gres),
            name);
        ++shown;
    }
    // What was typed stays; nothing typed: the cluster's default partition, named.
    const int keep = m_partition->findData(typed);
    if (keep >= 0)
        m_partition->setCurrentIndex(keep);
    else if (typed.trimmed().isEmpty() && byDefault >= 0)
        m_partition->setCurrentIndex(byDefault);
    else
        m_partition->setEditText(typed);
    m_note->setText(shown ? tr("%n partition(s) from sinfo", nullptr, shown)
                          : tr("sinfo lists no partition"));
    emit partitionsListed();
    emit edited();
}

} // namespace sv::ui
