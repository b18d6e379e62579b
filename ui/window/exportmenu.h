#pragma once
// File › Export and what it writes: the chart of the page shown, the scaling-loss chart, the
// Results table in four forms and the HTML report, each where the user chooses (the last
// export's folder first). Its actions, and those that need a group shown, are enabled only while
// there is something to export, and the chart actions name the chart they write.

#include "ui/charts/chartkind.h"
#include "ui/export/exportcontroller.h"

#include <QObject>

#include <optional>

class QAction;
class QLabel;
class QMenu;
class QWidget;

namespace sv::ui {

class AnalysisController;
class AppSettings;
class LoadController;
class PageStack;

class ExportMenu : public QObject {
    Q_OBJECT
  public:
    struct Parts {
        AnalysisController* analysis;
        ExportController* exporter;
        LoadController* loader; // the directory shown
        PageStack* pages;       // the chart of the page shown
        QLabel* status;
    };

    // Fills menu; window is the dialogs' parent.
    ExportMenu(QMenu* menu, QWidget* window, AppSettings* settings, Parts parts);

    // An action elsewhere that, like these, needs a group shown (Save as Reference Table…).
    void addNeedsAnalysis(QAction* action);
    // The analysis or the page shown changed.
    void update();

    // kind: the chart shown when absent.
    void exportChart(const QString& suffix, std::optional<ChartKind> kind = {});
    void exportTable(TableFormat format);
    // The directory shown as one self-contained HTML page.
    void exportReport();

    // The folder an export is first suggested in: the last export's, else the user's Documents
    // (else home) — never the log directory, which may be a shared or read-only data folder
    // whose logs are not to be mixed with outputs.
    static QString exportFolder(const QString& lastExport);

  signals:
    // File › Export › Report finished writing this file.
    void reportExported(const QString& path);

  private:
    // Where an export is suggested: in exportFolder(the last export's folder).
    QString suggestedPath(const QString& fileName) const;
    void reportWritten(bool ok, const QString& error, const QString& target);

    QWidget* m_window;
    AppSettings* m_settings;
    Parts m_p;
    QList<QAction*> m_needAnalysis;
    QAction* m_png = nullptr;
    QAction* m_svg = nullptr;
    QAction* m_lossPng = nullptr; // Where the scaling goes, from any page
    QAction* m_lossSvg = nullptr;
};

} // namespace sv::ui
