#pragma once
// The Run panel's Slurm fields, shown when "Where" is a Slurm cluster: partition (offered from
// sinfo, asked in the background), account, qos, time limit, exclusive nodes, GPUs per node, and
// a pyxis container image with its mounts.

#ifndef Q_MOC_RUN
#include "launcher/campaign/slurmsettings.h"
#endif

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProcess;

namespace sv::ui {

class SlurmFields : public QWidget {
    Q_OBJECT
  public:
    explicit SlurmFields(QWidget* parent = nullptr);

    launcher::SlurmSettings settings() const; // type "slurm"
    void setSettings(const launcher::SlurmSettings& settings);
    // Asks sinfo for the partitions; the list fills when it answers (nothing waits on it).
    void refreshPartitions();

    QComboBox* partition() const { return m_partition; }
    QLineEdit* account() const { return m_account; }
    QLineEdit* timeLimit() const { return m_time; }
    QLineEdit* containerImage() const { return m_image; }
    QLabel* clusterNote() const { return m_note; }

  signals:
    void edited();
    void partitionsListed(); // sinfo answered (or could not be run)

  private:
    void showPartitions(int exitCode, const QByteArray& output, const QString& error);

    QComboBox* m_partition;
    QLineEdit* m_account;
    QLineEdit* m_qos;
    QLineEdit* m_time;
    QCheckBox* m_exclusive;
    QCheckBox* m_gpus;
    QLineEdit* m_image;
    QLineEdit* m_mounts;
    QLabel* m_note;
    QProcess* m_sinfo = nullptr;
    launcher::SlurmSettings m_base; // keeps what has no widget (extraSbatchArgs, launch, ...)
};

} // namespace sv::ui
