#pragma once
// The app's setting for where the history lives: a SQLite file's path or a shared PostgreSQL
// database's postgresql:// URI, what SCALEVIEW_HISTORY_DB and the CLI's --history-db select.
// A value is checked by the history's own parser (history/historylocation.h) before anything
// is saved: a bad one is refused with the reason, and a URI holding a password is refused
// (libpq reads ~/.pgpass and PGPASSFILE itself), so no password reaches the settings file.

#include <QDialog>
#include <QString>

#include <filesystem>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace sv::ui {

class AppSettings;
class HistoryPage;

// Why text cannot be the history's location ("" when it can; "" text is the default).
QString historyLocationProblem(const QString& text);

// The database the app uses: SCALEVIEW_HISTORY_DB when set, else the setting (when it is still
// a valid location), else HistoryDatabase::defaultPath().
std::filesystem::path effectiveHistoryDatabase(const AppSettings& settings);

// Checks text and, when it is good, saves it in settings and points the page at it (the
// default for ""). Returns the problem otherwise, and saves and changes nothing.
QString applyHistoryDatabase(const QString& text, AppSettings* settings, HistoryPage* page);

// Copies every campaign (and expectation) of the SQLite history from into the history into,
// as `scaleview-cli history import` does: the source only read, each campaign checked, one
// already there counted, not doubled. Blocking (call it off the GUI thread); returns what it did
// in words.
QString importHistoryInto(const std::filesystem::path& into, const std::filesystem::path& from);

class HistoryLocationDialog : public QDialog {
    Q_OBJECT
  public:
    HistoryLocationDialog(AppSettings* settings, HistoryPage* page, QWidget* parent = nullptr);

    QLineEdit* field() const { return m_field; }
    // "Copy the campaigns of the history used until now into the new one": shown when that
    // history is a SQLite file (the local one a move to a team's PostgreSQL leaves behind),
    // not ticked; ticked, Save to another location has the page copy them in the background.
    QCheckBox* importBox() const { return m_import; }
    QString errorText() const;

  public slots:
    // Saves and closes when the value is good; else says why and stays open.
    void accept() override;

  private:
    AppSettings* m_settings;
    HistoryPage* m_page;
    QLineEdit* m_field;
    QCheckBox* m_import;
    std::filesystem::path m_previous; // the SQLite history used until now; empty: none
    QLabel* m_error;
};

} // namespace sv::ui
