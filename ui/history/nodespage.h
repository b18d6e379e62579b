#pragma once
// The Nodes page (issue 28 item 3): every node the recorded campaigns probed, with its latest
// pace per device, its trend against its own earlier campaigns and against its peers, and a flag
// where it got slower than either, the evidence in words under the table. The history is read
// on a worker thread (the GUI thread never waits on the database); a stale read is dropped.

#include "history/nodehistory.h"

#include <QWidget>

#include <filesystem>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace sv::ui {

class AppSettings;

class NodesPage : public QWidget {
    Q_OBJECT
  public:
    explicit NodesPage(QWidget* parent = nullptr);

    // The database the app's settings choose (as the History page's), read at each reload.
    void useSettings(AppSettings* settings);
    // This database instead (tests, and no settings).
    void setDatabasePath(const std::filesystem::path& path);
    // Reads the history again, in the background.
    void reload();

    const std::vector<history::NodeHealth>& nodes() const { return m_nodes; }
    QTableWidget* table() const { return m_table; }
    QString statusText() const;
    QString evidenceText() const;
    bool isLoading() const { return m_loading > 0; }

    enum Column { Node, Workload, Latest, VsOwn, VsPeers, Trend, Campaigns, Flag, Columns };

  signals:
    void loaded(); // the page shows what the database holds now

  protected:
    // Read each time the page is shown (a campaign may have been recorded meanwhile).
    void showEvent(QShowEvent* event) override;

  private:
    void showNodes(std::vector<history::NodeHealth> nodes, const QString& status);
    void showEvidence();
    std::filesystem::path currentPath() const;

    std::filesystem::path m_path;
    AppSettings* m_settings = nullptr;
    std::vector<history::NodeHealth> m_nodes;
    quint64 m_generation = 0;
    int m_loading = 0;
    QPushButton* m_reload;
    QTableWidget* m_table;
    QLabel* m_evidence;
    QLabel* m_status;
};

} // namespace sv::ui
