#pragma once
// What a new analysis does to the window: every page shows it, the Warnings dock lists what is
// wrong with it, the status line sums it up; and where a warning the user opens leads.

#include "ui/analysis/analysis.h"

#include <QObject>

class QLabel;
class QModelIndex;

namespace sv::ui {

class AnalysisController;
class AppSettings;
class ControlPanel;
class ExportController;
class PageStack;
class SeriesSet;
class WarningListModel;
class WindowDocks;

class AnalysisPresenter : public QObject {
    Q_OBJECT
  public:
    // What the analysis reaches: the pages and controls, the exporter, the comparison's names,
    // the warnings and their dock, the status line; the options shown are remembered.
    struct Targets {
        PageStack* pages;
        ControlPanel* controls;
        ExportController* exporter;
        SeriesSet* series;
        WarningListModel* warnings;
        WindowDocks* docks;
        QLabel* status;
    };

    AnalysisPresenter(AnalysisController* analysis, AppSettings* settings, Targets targets,
                      QObject* parent);

    void present(const AnalysisPtr& analysis);
    // The status line for the analysis shown: its directory, runs, method, warnings, window and
    // comparison; how to open one when none is.
    QString statusText() const;
    // The panel's list: each case's warnings, then the files'.
    static std::vector<Warning> shownWarnings(const Analysis& analysis);
    static QString openHint();

  signals:
    // Every page shows analysis (the window's analysisShown follows).
    void presented(sv::ui::AnalysisPtr analysis);

  private:
    // Activated in the Warnings dock: its run on the Runs page, or where the warning is said.
    void openWarning(const QModelIndex& index);

    AnalysisController* m_analysis;
    AppSettings* m_settings;
    Targets m_to;
};

} // namespace sv::ui
