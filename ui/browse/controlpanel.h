#pragma once
// The controls every view follows: method, measured window, case group, whether disturbed runs
// count, reference overlays.
// Emits the edited options; reflects each new Analysis without echoing it back. A badge says
// whose window is measured when it is not DLPerf's, beside a one-click reset to DLPerf's.

#include "ui/analysis/analysis.h"
#include "ui/settings/directorywindow.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QTreeView;
class QLabel;
class QListView;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace sv::ui {

class ReferenceListModel;

class ControlPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ControlPanel(QWidget* parent = nullptr);

    void setOptions(const AnalysisOptions& options);
    void setAnalysis(const AnalysisPtr& analysis);
    // The tables the user may overlay changed (saved, imported): listed, and the analysis asked
    // to use them.
    void setCatalog(std::shared_ptr<const ReferenceCatalog> catalog);
    AnalysisOptions options() const { return m_options; }
    // Says where the window shown comes from (campaignFile: the campaign.json, for Campaign).
    void setWindowSource(WindowSource source, const QString& campaignFile = {});
    WindowSource windowSource() const { return m_source; }

    QComboBox* methodBox() const { return m_method; }
    QComboBox* groupBox() const { return m_group; }
    QCheckBox* excludeDisturbedBox() const { return m_excludeDisturbed; }
    QSpinBox* warmupBox() const { return m_warmup; }
    QSpinBox* iterationsBox() const { return m_iterations; }
    QLabel* windowBadge() const { return m_windowBadge; }
    QPushButton* resetWindowButton() const { return m_resetWindow; }
    ReferenceListModel* references() const { return m_references; }
    QTreeView* referenceView() const { return m_referenceView; }
    // The series of a comparison, by name: double click (or F2) renames one.
    QListWidget* seriesList() const { return m_seriesList; }
    QPushButton* removeSeriesButton() const { return m_removeSeries; }
    // How the Show selector names a group: "NGC PyTorch · r50 fp32, batch 128" for one framework
    // of several, "Compare frameworks · r50 fp32, batch 128" for all of
    // them (the group first: a narrow dock cuts the end).
    static QString groupText(const CaseGroup& group, const std::vector<CaseGroup>& all);
    // A series' tooltip in the list: its directory and the window it is measured over, and
    // whose window that is (each added directory is measured over its own).
    static QString seriesToolTip(const Summary& summary);

  signals:
    void optionsEdited(const sv::ui::AnalysisOptions& options);
    void seriesRenamed(int index, const QString& label);
    void seriesRemoveRequested(int index);
    void addSeriesRequested();

  private:
    void edited();
    void markEmptyWindow(bool empty);
    void updateBadge();
    // The spin boxes show the window measured: each format's DLPerf default is the shown
    // group's (its first format's, in Compare frameworks).
    void showWindow();
    // The method box: no DLPerf method for logs whose figure is their own reports.
    void showMethod();
    // The constructor's steps: the fields and their tooltips, the window's badge and reset,
    // the form, the compared series, the whole panel, and what each edit sends.
    void setUpFields();
    void setUpWindowBadge();
    QFormLayout* buildForm();
    void buildSeriesBox();
    void layOut(QFormLayout* form);
    void connectEdits();

    AnalysisOptions m_options;
    std::vector<CaseGroup> m_groups;
    bool m_updating = false;
    QComboBox* m_method;
    QSpinBox* m_warmup;
    QSpinBox* m_iterations;
    QLabel* m_windowBadge;
    QPushButton* m_resetWindow;
    WindowSource m_source = WindowSource::Dlperf;
    QString m_campaignFile;
    // The windows the shown group's runs were measured over, with their formats.
    std::vector<WindowUse> m_shownWindows;
    QComboBox* m_group;
    QCheckBox* m_excludeDisturbed;
    ReferenceListModel* m_references;
    QTreeView* m_referenceView;
    QWidget* m_seriesBox;
    QListWidget* m_seriesList;
    QPushButton* m_removeSeries;
    QStringList m_seriesLabels;
};

} // namespace sv::ui
