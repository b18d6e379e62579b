#include "ui/history/nodespage.h"

#include "async/backgroundtask.h"
#include "core/model/numerics.h"
#include "history/historydatabase.h"
#include "history/nodeverdict.h"
#include "ui/history/historylocationdialog.h"
#include "core/model/wording.h"

#include <QBrush>
#include <QColor>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sv::ui {

namespace {

struct NodesRead {
    std::vector<history::NodeHealth> nodes;
    QString status;
};

NodesRead readNodes(const std::filesystem::path& path) {
    NodesRead out;
    if (path.empty()) {
        out.status = QObject::tr("The history is off (SCALEVIEW_HISTORY_DB=off).");
        return out;
    }
    history::HistoryDatabase db(path, history::HistoryDatabase::Access::Read);
    if (!db.isOpen()) {
        out.status = QString::fromStdString(db.error());
        return out;
    }
    std::string error;
    const auto observations = db.nodeObservations(&error);
    if (!observations) {
        out.status = QString::fromStdString(error);
        return out;
    }
    out.nodes = history::nodeHealth(*observations);
    int flagged = 0;
    for (const auto& n : out.nodes)
        flagged += n.flagged() ? 1 : 0;
    const QString where = QDir::toNativeSeparators(QString::fromStdString(path.string()));
    out.status = out.nodes.empty()
                     ? QObject::tr("No node probes in %1: campaigns run with probes record each "
                                   "node's figures (probes.json) when they are recorded.")
                           .arg(where)
                     : QObject::tr("%1, %2 flagged, in %3")
                           .arg(QString::fromStdString(
                               countOf(static_cast<long long>(out.nodes.size()), "node")))
                           .arg(flagged)
                           .arg(where);
    return out;
}

QString signedPct(const std::optional<double>& v) {
    if (!v) return QStringLiteral("–");
    const QString shown = QString::fromStdString(formatShown(*v, 1)); // never "-0.0"
    return (*v > 0 && shown != QLatin1String("0.0") ? QStringLiteral("+") : QString()) + shown +
           QStringLiteral(" %");
}

QString flagOf(const history::NodeHealth& h) {
    if (h.slowerThanItself && h.slowerThanPeers) return QObject::tr("Slower than itself and peers");
    if (h.slowerThanItself) return QObject::tr("Slower than its history");
    if (h.slowerThanPeers) return QObject::tr("Slower than its peers");
    // Far faster is no fault of the node, but not "OK" either (it read "+44.1 %  OK").
    if (history::fasterThanPeers(h))
        return QObject::tr("Faster than its peers: check the others or this node's setup");
    if (history::fasterThanItself(h))
        return QObject::tr("Faster than its history: check what changed in its setup");
    return QObject::tr("OK");
}

// The paces oldest first, the latest last: "100.00 → 100.50 → 88.00" (at most the last six).
QString trendOf(const history::NodeHealth& h) {
    QStringList paces;
    const std::size_t from = h.history.size() > 6 ? h.history.size() - 6 : 0;
    for (std::size_t i = from; i < h.history.size(); ++i)
        paces << QString::number(h.history[i].pace, 'f', 2);
    return (from > 0 ? QStringLiteral("… ") : QString()) + paces.join(QStringLiteral(" → "));
}

} // namespace

NodesPage::NodesPage(QWidget* parent)
    : QWidget(parent), m_path(history::HistoryDatabase::defaultPath()),
      m_reload(new QPushButton(tr("Reload"), this)), m_table(new QTableWidget(this)),
      m_evidence(new QLabel(this)), m_status(new QLabel(this)) {
    setObjectName(QStringLiteral("nodesPage"));
    const QStringList headers{tr("Node"),      tr("Workload"), tr("Latest, per device"),
                              tr("vs own"),    tr("vs peers"), tr("Pace over campaigns"),
                              tr("Campaigns"), tr("Flag")};
    m_table->setColumnCount(Columns);
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_evidence->setWordWrap(true);
    m_evidence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* intro = new QLabel(
        tr("Each node alone at its device count, as the campaigns' probes measured it: flagged "
           "when it got slower than its own earlier campaigns or than the other nodes."),
        this);
    intro->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(intro, 1);
    top->addWidget(m_reload);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_evidence);
    layout->addWidget(m_status);
    connect(m_reload, &QPushButton::clicked, this, &NodesPage::reload);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &NodesPage::showEvidence);
    showNodes({}, tr("Reading the history…"));
}

void NodesPage::useSettings(AppSettings* settings) {
    m_settings = settings;
}

void NodesPage::setDatabasePath(const std::filesystem::path& path) {
    m_settings = nullptr;
    m_path = path;
    reload();
}

std::filesystem::path NodesPage::currentPath() const {
    return m_settings ? effectiveHistoryDatabase(*m_settings) : m_path;
}

void NodesPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    reload();
}

void NodesPage::reload() {
    const quint64 generation = ++m_generation;
    ++m_loading;
    async::runInBackground(
        this, [path = currentPath()] { return readNodes(path); },
        [this, generation](NodesRead read) {
            --m_loading;
            if (generation != m_generation) return; // a newer read is on its way
            showNodes(std::move(read.nodes), read.status);
            emit loaded();
        },
        async::backgroundPool());
}

void NodesPage::showNodes(std::vector<history::NodeHealth> nodes, const QString& status) {
    m_nodes = std::move(nodes);
    m_table->setRowCount(static_cast<int>(m_nodes.size()));
    for (int row = 0; row < static_cast<int>(m_nodes.size()); ++row) {
        const auto& h = m_nodes[static_cast<std::size_t>(row)];
        const QStringList cells{QString::fromStdString(h.node), QString::fromStdString(h.workload),
                                // The probes' pace of one device of the node: images of the
                                // campaigns' ResNet-50 workload a second, in the unit the Run
                                // tab gives the runs and the probes (one unit for one thing).
                                tr("%1 images/s").arg(h.latestPace, 0, 'f', 2),
                                signedPct(h.trendPct), signedPct(h.peerPct), trendOf(h),
                                QString::number(h.history.size()), flagOf(h)};
        for (int c = 0; c < Columns; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(QString::fromStdString(h.evidence));
            if ((c >= Latest && c <= VsPeers) || c == Campaigns)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (h.flagged()) {
                item->setForeground(QBrush(QColor(0xa0, 0x10, 0x10)));
                item->setBackground(QBrush(QColor(0xfd, 0xec, 0xea)));
            } else if (history::fasterThanPeers(h) || history::fasterThanItself(h)) {
                item->setForeground(QBrush(QColor(0x8a, 0x4b, 0x00))); // to look at, not a fault
                item->setBackground(QBrush(QColor(0xff, 0xf4, 0xdc)));
            }
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(Flag, QHeaderView::Stretch);
    m_status->setText(status);
    showEvidence();
}

void NodesPage::showEvidence() {
    QStringList lines;
    const auto selected = m_table->selectionModel()->selectedRows();
    if (!selected.isEmpty()) {
        const auto& h = m_nodes.at(static_cast<std::size_t>(selected.first().row()));
        lines << QString::fromStdString(h.node) + QStringLiteral(": ") +
                     QString::fromStdString(h.evidence);
    } else {
        // Nothing chosen: the flagged nodes' evidence.
        for (const auto& h : m_nodes)
            if (h.flagged())
                lines << QString::fromStdString(h.node) + QStringLiteral(": ") +
                             QString::fromStdString(h.evidence);
    }
    m_evidence->setText(lines.join(QLatin1Char('\n')));
    m_evidence->setVisible(!lines.isEmpty());
}

QString NodesPage::statusText() const {
    return m_status->text();
}

QString NodesPage::evidenceText() const {
    return m_evidence->text();
}

} // namespace sv::ui
