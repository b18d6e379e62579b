#pragma once
// The reference overlays checked in the last session: the settings keep their ids, but the
// user's tables are read after the settings (in the background), so those among them are checked
// again once they are read, and those gone (file deleted, now malformed) said once and dropped.

#include "ui/analysis/analysisoptions.h"

#include <QObject>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

class QStatusBar;

namespace sv::ui {

class AnalysisController;
class AppSettings;
class ControlPanel;
class ReferenceTables;

class SavedReferences : public QObject {
    Q_OBJECT
  public:
    // Reads what the settings saved, before the user's tables are read.
    SavedReferences(AppSettings* settings, AnalysisController* analysis, ControlPanel* controls,
                    QStatusBar* statusBar, QObject* parent);

    // The user's tables are read (problems: those that could not be).
    void restore(const ReferenceTables& tables, const QStringList& problems);

  private:
    AppSettings* m_settings;
    AnalysisController* m_analysis;
    ControlPanel* m_controls;
    QStatusBar* m_statusBar;
    // The references checked when the settings were last saved (with the user's tables' ids,
    // which the settings cannot check before those tables are read), until they are.
    std::optional<QStringList> m_saved;
    std::vector<std::string> m_atStart; // what the window started with (built-in ones)
};

} // namespace sv::ui
