#include "ui/window/savedreferences.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/referencetables.h"
#include "ui/settings/appsettings.h"

#include <QStatusBar>

#include <utility>

namespace sv::ui {

SavedReferences::SavedReferences(AppSettings* settings, AnalysisController* analysis,
                                 ControlPanel* controls, QStatusBar* statusBar, QObject* parent)
    : QObject(parent), m_settings(settings), m_analysis(analysis), m_controls(controls),
      m_statusBar(statusBar), m_saved(settings->checkedReferences()),
      m_atStart(settings->analysisOptions().references) {}

void SavedReferences::restore(const ReferenceTables& tables, const QStringList& problems) {
    QStringList said = problems;
    const auto saved = std::exchange(m_saved, std::nullopt); // the first read only
    const AnalysisOptions now = m_analysis->options();
    // Unless the user has checked or unchecked references while the tables were read.
    if (saved && !now.autoReferences && now.references == m_atStart) {
        const ReferenceCatalog& catalog = *tables.catalog();
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
    if (!said.isEmpty()) m_statusBar->showMessage(said.join(QStringLiteral("; ")), 60000);
}

} // namespace sv::ui
