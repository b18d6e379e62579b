#pragma once
// The reference tables the window compares with: the built-in ones, the user's own (saved in
// $XDG_DATA_HOME/scaleview/references, as `scaleview-cli references save` writes them) and the
// tables imported from files. Save as Reference Table… and Import Reference Table… go through
// the catalog's strict reading: a malformed file is refused whole, naming field and reason.

#include "ui/analysis/analysis.h"
#include "core/reference/referencecatalog.h"
#include "core/report/referencetablewriter.h"

#include <QObject>

#include <filesystem>
#include <memory>

class QWidget;

namespace sv::ui {

class ReferenceTables : public QObject {
    Q_OBJECT
  public:
    using CatalogPtr = std::shared_ptr<const ReferenceCatalog>;

    explicit ReferenceTables(QObject* parent = nullptr);

    // $XDG_DATA_HOME/scaleview/references (~/.local/share/...), from this process's environment.
    static std::filesystem::path userDirectory();
    CatalogPtr catalog() const { return m_catalog; }

    // Reads the built-in and the user's tables on a worker thread; catalogChanged when done.
    void loadUserTables();
    // Writes summary's cases as table info.id into the user directory (never replacing a file
    // or a known id) and adds it; on a worker thread, finished says how it went.
    void save(const Summary& summary, const ReferenceTableInfo& info);
    // Reads file whole (refused whole when malformed or when an id is known), adds its tables
    // and keeps a copy in the user directory so they are there next time.
    void import(const QString& file);

    // The dialogs: an id and a title for the directory shown; a file to import.
    void saveInteractive(QWidget* parent, const AnalysisPtr& analysis);
    void importInteractive(QWidget* parent);

  signals:
    void catalogChanged(sv::ui::ReferenceTables::CatalogPtr catalog);
    // loadUserTables is done (after its catalogChanged): problems names each user file left
    // out, with the field and the reason.
    void userTablesLoaded(const QStringList& problems);
    void finished(bool ok, const QString& message);

  private:
    struct Outcome {
        CatalogPtr catalog; // null when refused
        QString message;
        QStringList warnings; // user files left out while loading
    };
    void apply(const Outcome& outcome, bool reportFinished);

    CatalogPtr m_catalog;
    std::filesystem::path m_directory;
    quint64 m_generation = 0;
};

} // namespace sv::ui
