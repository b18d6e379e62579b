#pragma once
// The History page: for a chosen case, its median over the recorded campaigns with each one's
// min-max and the regression flag, and the campaigns' environments in a table. The database is
// read and written on a worker thread; a stale read is dropped.

#include "history/historytrend.h"

#include <QWidget>

#include <filesystem>
#include <functional>
#include <vector>

class QChartView;
class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace sv::ui {

class AppSettings;

class HistoryPage : public QWidget {
    Q_OBJECT
  public:
    explicit HistoryPage(QWidget* parent = nullptr);

    // Where the history lives (default: HistoryDatabase::defaultPath()); reloads.
    void setDatabasePath(const std::filesystem::path& path);
    const std::filesystem::path& databasePath() const { return m_path; }
    // The app's settings: the database they choose (effectiveHistoryDatabase: the
    // environment's first), and the Database… button's dialog that changes it.
    void useSettings(AppSettings* settings);
    // Reads the history again, in the background.
    void reload();
    // Records a log directory (Record in History), in the background, then reloads.
    void recordDirectory(const QString& directory);
    // Imports another site's campaign from its bundle (History's Import Bundle…, as `history
    // import NAME.svbundle`): verified first, recorded with its origin, in the background; then
    // reloads. A bundle that is not verified is not recorded, and the page says why.
    void importBundle(const QString& bundle);
    // Copies every campaign of the SQLite history from into this page's (the Database…
    // dialog's offer when the history moves), in the background; then reloads and says what
    // was copied.
    void importHistory(const std::filesystem::path& from);
    // Marks the latest verdict of trends()[index] expected (who: this user; why as given), in
    // the background; the page then reads the history again and says what was recorded.
    void markExpected(int index, const QString& why);
    QPushButton* expectButton() const { return m_expect; }
    // The directory "Record in History" records (the one open in the window).
    void setCurrentDirectory(const QString& directory);

    const std::vector<history::CaseTrend>& trends() const { return m_trends; }
    QComboBox* caseBox() const { return m_case; }
    QTableWidget* table() const { return m_table; }
    QChartView* chartView() const { return m_chart; }
    QString flagText() const;
    QString statusText() const;
    bool isLoading() const { return m_loading > 0; }

  signals:
    void loaded();                         // the page shows what the database holds now
    void recorded(const QString& message); // a record ended (added, already there, failed)

  protected:
    // The history is read when the page is first shown, not at start.
    void showEvent(QShowEvent* event) override;

  private:
    void showTrends(std::vector<history::CaseTrend> trends, const QString& status);
    void showCase(int index);
    void askWhyExpected();
    // A write to the history (a record, an import) on a worker thread, doing said meanwhile;
    // then what it returned said and the history read again.
    void writeThenReload(const QString& doing, std::function<QString()> write);

    std::filesystem::path m_path;
    QString m_directory;
    QString m_recordNote; // the last record's outcome, shown once after the reload
    std::vector<history::CaseTrend> m_trends;
    quint64 m_generation = 0;
    int m_loading = 0;
    bool m_readOnce = false;
    QComboBox* m_case;
    AppSettings* m_settings = nullptr;
    QPushButton* m_reload;
    QPushButton* m_database;
    QPushButton* m_record;
    QPushButton* m_importBundle;
    QPushButton* m_expect;
    QLabel* m_flag;
    QLabel* m_status;
    QChartView* m_chart;
    QTableWidget* m_table;
};

} // namespace sv::ui
