#include "ui/history/historylocationdialog.h"

#include "history/historydatabase.h"
#include "history/historyimport.h"
#include "history/historylocation.h"
#include "ui/history/historypage.h"
#include "ui/settings/appsettings.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "core/model/wording.h"

#include <cstdlib>

namespace sv::ui {

QString historyLocationProblem(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed == QLatin1String("off")) return {};
    const auto location = history::parseHistoryLocation(trimmed.toStdString());
    if (location.kind == history::HistoryLocation::Kind::Invalid)
        return QString::fromStdString(location.error);
    return {};
}

std::filesystem::path effectiveHistoryDatabase(const AppSettings& settings) {
    const char* env = std::getenv("SCALEVIEW_HISTORY_DB");
    const QString chosen = settings.historyDatabase().trimmed();
    // The environment wins (a session's own choice); a setting edited by hand into something
    // the parser refuses is ignored, never opened.
    if ((env && *env) || chosen.isEmpty() || !historyLocationProblem(chosen).isEmpty())
        return history::HistoryDatabase::defaultPath();
    if (chosen == QLatin1String("off")) return {};
    return std::filesystem::path(chosen.toStdString());
}

QString applyHistoryDatabase(const QString& text, AppSettings* settings, HistoryPage* page) {
    if (const QString problem = historyLocationProblem(text); !problem.isEmpty()) return problem;
    settings->setHistoryDatabase(text.trimmed());
    settings->sync();
    const QString chosen = text.trimmed();
    if (chosen.isEmpty())
        page->setDatabasePath(history::HistoryDatabase::defaultPath());
    else
        page->setDatabasePath(chosen == QLatin1String("off")
                                  ? std::filesystem::path()
                                  : std::filesystem::path(chosen.toStdString()));
    return {};
}

QString importHistoryInto(const std::filesystem::path& into, const std::filesystem::path& from) {
    const QString source = QDir::toNativeSeparators(QString::fromStdString(from.string()));
    history::HistoryDatabase in(from, history::HistoryDatabase::Access::Source);
    if (!in.isOpen())
        return QObject::tr("Not copied from %1: %2")
            .arg(source, QString::fromStdString(in.error()));
    history::HistoryDatabase db(into);
    if (!db.isOpen())
        return QObject::tr("Not copied from %1: %2")
            .arg(source, QString::fromStdString(db.error()));
    const history::ImportResult r = history::HistoryImport(in).into(db);
    QString said = QObject::tr("Copied the history %1 into this one: %2 added, %3 already there")
                       .arg(source, QString::fromStdString(countOf(r.added, "campaign")))
                       .arg(r.alreadyThere);
    if (r.failed > 0)
        said +=
            QObject::tr(", %1 not copied (%2)")
                .arg(r.failed)
                .arg(r.messages.empty() ? QString() : QString::fromStdString(r.messages.front()));
    return said;
}

HistoryLocationDialog::HistoryLocationDialog(AppSettings* settings, HistoryPage* page,
                                             QWidget* parent)
    : QDialog(parent), m_settings(settings), m_page(page), m_field(new QLineEdit(this)),
      m_import(new QCheckBox(this)), m_error(new QLabel(this)) {
    setWindowTitle(tr("History Database"));
    m_field->setObjectName(QStringLiteral("historyDatabase"));
    m_field->setText(settings->historyDatabase());
    m_field->setPlaceholderText(
        QString::fromStdString(history::HistoryDatabase::defaultPath().string()));
    m_field->setMinimumWidth(520);
    auto* help = new QLabel(
        tr("A SQLite file, or a shared PostgreSQL database as a URI, e.g. "
           "<tt>postgresql://perf_writer@db.example.org/scaleview?sslmode=verify-full</tt>. "
           "Never a password: libpq reads it from <tt>~/.pgpass</tt> or the file "
           "<tt>PGPASSFILE</tt> names. Empty: the default file. "
           "<tt>SCALEVIEW_HISTORY_DB</tt>, when set, wins at start."),
        this);
    help->setWordWrap(true);
    help->setTextFormat(Qt::RichText);
    m_error->setObjectName(QStringLiteral("historyDatabaseError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #b00020 }"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    // The history used until now, when it is a file: a move to a team's database offers to take
    // its campaigns along (the file itself is left as it is).
    std::error_code ec;
    if (const auto& now = page->databasePath();
        !now.empty() && std::filesystem::is_regular_file(now, ec))
        m_previous = now;
    m_import->setObjectName(QStringLiteral("historyImportPrevious"));
    m_import->setText(
        tr("Copy the campaigns of the history used until now (%1) into the new one")
            .arg(QDir::toNativeSeparators(QString::fromStdString(m_previous.string()))));
    // Offered, not imposed: a team's database takes a desk's campaigns only when asked.
    m_import->setChecked(false);
    m_import->setVisible(!m_previous.empty());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &HistoryLocationDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Where the history lives:"), this));
    layout->addWidget(m_field);
    layout->addWidget(help);
    layout->addWidget(m_import);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

QString HistoryLocationDialog::errorText() const {
    return m_error->isVisible() || !m_error->isHidden() ? m_error->text() : QString();
}

void HistoryLocationDialog::accept() {
    const QString problem = applyHistoryDatabase(m_field->text(), m_settings, m_page);
    if (!problem.isEmpty()) {
        m_error->setText(tr("Not saved: %1").arg(problem));
        m_error->show();
        return;
    }
    if (!m_previous.empty() && m_import->isChecked() && !m_page->databasePath().empty() &&
        m_page->databasePath() != m_previous)
        m_page->importHistory(m_previous);
    QDialog::accept();
}

} // namespace sv::ui
