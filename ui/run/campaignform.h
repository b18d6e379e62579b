#pragma once
// The Run panel's left column: every field of a launcher Campaign as a widget — profile, hosts
// (with import from an SSH config), container, topologies (greyed out with the reason when the
// hosts cannot run them; an opened campaign's stay ticked), batch size, precision, repeats
// (fixed, or adaptive: at least N, until the interval is within ±X %, at most M), iterations,
// warmup, cooldown, output.

// moc trips over the C++20 standard headers behind the launcher types; it needs only names.
#ifndef Q_MOC_RUN
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"
#endif

#include <QLabel>
#include <QLineEdit>
#include <QWidget>

#include <map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
class QTableView;

namespace sv::ui {

class HostTableModel;
class SlurmFields;

class CampaignForm : public QWidget {
    Q_OBJECT
  public:
    explicit CampaignForm(QWidget* parent = nullptr);

    // What a fresh start runs: a small local campaign of the real CPU workload.
    static launcher::Campaign defaultCampaign();
    static QString freshOutputDir();

    launcher::Campaign campaign() const;
    QCheckBox* probesBox() const { return m_probes; }
    void setCampaign(const launcher::Campaign& campaign);
    // Problems the form already knows of: a custom topology that is not NnGg, a ticked one the
    // hosts cannot run (an opened campaign keeps those, ticked in red, with the reason).
    QStringList problems() const;

    // Adds the config's Host entries; importNote() then says what was imported (or why not).
    void importSshConfig(const QString& file);
    QString importNote() const { return m_importNote->text(); }
    // "Host 2 address: …" for the campaign check's "hosts[1].address: …"; other text unchanged.
    static QString hostMessage(const std::string& problem);
    void setOutputDir(const QString& dir) { m_outputDir->setText(dir); }
    QCheckBox* topologyBox(const QString& name) const;
    QLineEdit* customTopologies() const { return m_custom; }
    QSpinBox* batchSize() const { return m_batch; }
    QSpinBox* repeats() const { return m_repeats; }
    QCheckBox* adaptiveRepeats() const { return m_adaptive; }
    QDoubleSpinBox* targetCi() const { return m_targetCi; }
    QSpinBox* repeatsMax() const { return m_repeatsMax; }
    QSpinBox* iterations() const { return m_iterations; }
    QSpinBox* warmup() const { return m_warmup; }
    QSpinBox* cooldown() const { return m_cooldown; }
    QSpinBox* imageSize() const { return m_imageSize; }
    QComboBox* precision() const { return m_precision; }
    QComboBox* launcherChoice() const { return m_launcher; }
    QLineEdit* outputDir() const { return m_outputDir; }
    QLineEdit* containerImage() const { return m_image; }
    QLineEdit* containerMounts() const { return m_mounts; }
    QLineEdit* runningContainer() const { return m_container; }
    QComboBox* profileChoice() const { return m_profile; }
    HostTableModel* hosts() const { return m_hosts; }
    // Where the runs go: "local" (this machine), "ssh" (the hosts) or "slurm" (a cluster).
    QComboBox* where() const { return m_where; }
    SlurmFields* slurmFields() const { return m_slurm; }

  signals:
    void edited();

  private:
    // The constructor's steps.
    void fillChoices();
    void layOut();
    void connectFields();

    QWidget* buildHosts();
    launcher::Container formContainer() const;
    // The chosen profile's label, launchers (`launcher` chosen, else its default) and options.
    void showProfile(const std::string& launcher);
    // The profile's launchers, `wanted` chosen (else the profile's default).
    void fillLaunchers(const launcher::WorkloadProfile* profile, const std::string& wanted);
    QWidget* buildTopologies();
    QWidget* buildRepeats();
    void updateAvailability();
    // Shows the rows the chosen "Where" uses (hosts, container, Slurm fields).
    void showWhere();
    bool underSlurm() const;
    void chooseSshConfig();
    void chooseOutputDir();

    QComboBox* m_profile;
    QLabel* m_profileLabel;
    QComboBox* m_launcher;
    std::string m_defaultLauncher;
    std::string m_needs; // the chosen profile's: what one local node's slots are
    HostTableModel* m_hosts;
    QTableView* m_hostView;
    QLineEdit* m_sshConfig;
    QLineEdit* m_container;
    QLineEdit* m_image;  // a container image the launcher starts on every host
    QLineEdit* m_mounts; // its mounts, SRC:DST[:ro], separated by commas or spaces
    std::map<QString, QCheckBox*> m_topologies; // by name, "1n1g"
    QLineEdit* m_custom;
    QLabel* m_customWhy;
    QLabel* m_importNote;
    QSpinBox* m_batch;
    QComboBox* m_precision;
    QSpinBox* m_repeats;
    QCheckBox* m_adaptive;
    QDoubleSpinBox* m_targetCi;
    QSpinBox* m_repeatsMax;
    double m_setTargetCi = 0; // what setCampaign showed
    QSpinBox* m_iterations;
    QSpinBox* m_warmup;
    QSpinBox* m_cooldown;
    QSpinBox* m_imageSize;
    QLineEdit* m_outputDir;
    QComboBox* m_where;
    QCheckBox* m_probes; // the campaign's probes (issue 28)
    SlurmFields* m_slurm;
    QFormLayout* m_form = nullptr;
    QWidget* m_hostsRow = nullptr;
    QCheckBox* m_useContainer = nullptr; // shows the container rows; off: none is used
    launcher::Campaign m_base;  // keeps what the form has no widget for (timeouts, launcher)
    QString m_defaultImageSize; // the profile's, as text; empty when it has none
    int m_setImageSize = 0;     // what setCampaign showed: unchanged keeps the campaign's text
};

} // namespace sv::ui
