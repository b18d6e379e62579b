#pragma once
// The app's setting for where the history lives: a SQLite file's path or a shared PostgreSQL
// database's postgresql:// URI, what SCALEVIEW_HISTORY_DB and the CLI's --history-db select.
// A value is checked by the history's own parser (history/historylocation.h) before anything
// is saved: a bad one is refused with the reason, and a URI holding a password is refused
// (libpq reads ~/.pgpass and PGPASSFILE itself), so no password reaches the settings file.

#include <QDialog>
#include <QString>

#include <filesystem>

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

class HistoryLocationDialog : public QDialog {
    Q_OBJECT
  public:
    HistoryLocationDialog(AppSettings* settings, HistoryPage* page, QWidget* parent = nullptr);

    QLineEdit* field() const { return m_field; }
    QString errorText() const;

  public slots:
    // Saves and closes when the value is good; else says why and stays open.
    void accept() override;

  private:
    AppSettings* m_settings;
    HistoryPage* m_page;
    QLineEdit* m_field;
    QLabel* m_error;
};

} // namespace sv::ui
