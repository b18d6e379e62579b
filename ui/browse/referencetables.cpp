#include "ui/browse/referencetables.h"
#include "async/backgroundtask.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace sv::ui {

namespace {

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

ReferenceTables::ReferenceTables(QObject* parent)
    : QObject(parent),
      m_catalog(std::make_shared<const ReferenceCatalog>(ReferenceCatalog::builtin())),
      m_directory(userDirectory()) {
    qRegisterMetaType<sv::ui::ReferenceTables::CatalogPtr>();
}

std::filesystem::path ReferenceTables::userDirectory() {
    return userReferenceDirectory(std::getenv("XDG_DATA_HOME"), std::getenv("HOME"));
}

void ReferenceTables::apply(const Outcome& outcome, bool reportFinished) {
    if (outcome.catalog) {
        m_catalog = outcome.catalog;
        emit catalogChanged(m_catalog);
    }
    if (reportFinished) emit finished(outcome.catalog != nullptr, outcome.message);
}

void ReferenceTables::loadUserTables() {
    const quint64 generation = ++m_generation;
    async::runInBackground(
        this,
        [dir = m_directory] {
            std::vector<std::string> refused;
            Outcome out;
            out.catalog = std::make_shared<const ReferenceCatalog>(
                ReferenceCatalog::withUserTables(dir, &refused));
            for (const auto& r : refused)
                out.warnings << QString::fromStdString(r);
            return out;
        },
        [this, generation](const Outcome& outcome) {
            // A save or import since has the newer catalog.
            if (generation != m_generation) return;
            apply(outcome, false);
            emit userTablesLoaded(outcome.warnings);
        },
        async::backgroundPool());
}

void ReferenceTables::save(const Summary& summary, const ReferenceTableInfo& info) {
    ++m_generation;
    async::runInBackground(
        this,
        [dir = m_directory, current = m_catalog, summary, info] {
            Outcome out;
            std::string error;
            if (!isValidReferenceId(info.id)) {
                out.message = QObject::tr("The id must be letters, digits, '.', '_' or '-' (up to "
                                          "100), not '%1'")
                                  .arg(QString::fromStdString(info.id));
                return out;
            }
            if (current->find(info.id)) {
                out.message = QObject::tr("A table '%1' exists already: choose another id")
                                  .arg(QString::fromStdString(info.id));
                return out;
            }
            const auto json = referenceTablesJson(summary, info, &error);
            std::error_code ec;
            std::filesystem::create_directories(dir, ec);
            const auto path = dir / (info.id + ".json");
            if (!json || !writeNewReferenceFile(path, *json, error)) {
                out.message = QString::fromStdString(error);
                return out;
            }
            ReferenceCatalog next = *current;
            if (!next.addFile(path, &error)) {
                out.message = QString::fromStdString(error);
                return out;
            }
            out.catalog = std::make_shared<const ReferenceCatalog>(std::move(next));
            out.message = QObject::tr("Saved as %1").arg(QString::fromStdString(path.string()));
            return out;
        },
        [this](const Outcome& outcome) { apply(outcome, true); }, async::workPool());
}

void ReferenceTables::import(const QString& file) {
    ++m_generation;
    async::runInBackground(
        this,
        [dir = m_directory, current = m_catalog, file] {
            Outcome out;
            std::string error;
            const std::filesystem::path source = file.toStdString();
            ReferenceCatalog next = *current;
            // Whole or nothing: addFile validates every table before any is added.
            if (!next.addFile(source, &error)) {
                out.message = QString::fromStdString(error);
                return out;
            }
            // A copy in the user directory lists it next time; an existing file is never replaced.
            std::error_code ec;
            std::filesystem::create_directories(dir, ec);
            const auto copy = dir / source.filename();
            if (std::filesystem::absolute(source).lexically_normal() != copy.lexically_normal() &&
                !writeNewReferenceFile(copy, slurp(source), error)) {
                out.message = QString::fromStdString(error);
                return out;
            }
            out.catalog = std::make_shared<const ReferenceCatalog>(std::move(next));
            out.message = QObject::tr("Imported %1 (kept as %2)")
                              .arg(file, QString::fromStdString(copy.string()));
            return out;
        },
        [this](const Outcome& outcome) { apply(outcome, true); }, async::workPool());
}

void ReferenceTables::saveInteractive(QWidget* parent, const AnalysisPtr& analysis) {
    if (!analysis || analysis->summary.cases.empty()) return;
    const QString root = QString::fromStdString(analysis->summary.root);
    bool ok = false;
    const QString id = QInputDialog::getText(
        parent, tr("Save as Reference Table"),
        tr("Id (letters, digits, '.', '_', '-'); the table is listed under it:"), QLineEdit::Normal,
        QFileInfo(root).fileName(), &ok);
    if (!ok || id.isEmpty()) return;
    const QString title = QInputDialog::getText(parent, tr("Save as Reference Table"), tr("Title:"),
                                                QLineEdit::Normal, id, &ok);
    if (!ok) return;
    ReferenceTableInfo info;
    info.id = id.toStdString();
    info.title = (title.isEmpty() ? id : title).toStdString();
    info.source = QStringLiteral("saved by ScaleView %1 from %2 on %3")
                      .arg(QCoreApplication::applicationVersion(), root,
                           QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd")))
                      .toStdString();
    save(analysis->summary, info);
}

void ReferenceTables::importInteractive(QWidget* parent) {
    const QString file = QFileDialog::getOpenFileName(parent, tr("Import Reference Table"),
                                                      QString(), tr("Reference tables (*.json)"));
    if (!file.isEmpty()) import(file);
}

} // namespace sv::ui
