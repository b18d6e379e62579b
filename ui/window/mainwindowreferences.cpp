// MainWindow's part in the user's reference tables: the overlays checked in the last session
// come back once those tables are read (in the background, after the settings).

#include "ui/window/mainwindow.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/settings/appsettings.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/referencetables.h"

#include <QStatusBar>

#include <utility>

namespace sv::ui {

void MainWindow::restoreReferences(const QStringList& problems) {
    QStringList said = problems;
    const auto saved = std::exchange(m_savedReferences, std::nullopt); // the first read only
    const AnalysisOptions now = m_analysis->options();
    // Unless the user has checked or unchecked references while the tables were read.
    if (saved && !now.autoReferences && now.references == m_startReferences) {
        const ReferenceCatalog& catalog = *m_referenceTables->catalog();
        AnalysisOptions o = now;
        o.references.clear();
        QStringList gone;
        for (const QString& id : *saved) {
            if (catalog.knows(id.toStdString()))
                o.references.push_back(id.toStdString());
            else
                gone << id;
        }
        if (!gone.isEmpty())
            said << tr("Checked last time but no longer among the reference tables (file gone "
                       "or malformed), unchecked: %1")
                        .arg(gone.join(QStringLiteral(", ")));
        if (o.references != now.references || !gone.isEmpty()) {
            m_controls->setOptions(o);
            m_analysis->setOptions(o);
            // Said once: the next start does not look for it again.
            m_settings->setAnalysisOptions(o);
        }
    }
    // A message of its own, not the status line a recompute rewrites.
    if (!said.isEmpty()) statusBar()->showMessage(said.join(QStringLiteral("; ")), 60000);
}

} // namespace sv::ui
