#include "ui/browse/environmentpage.h"
#include "async/backgroundtask.h"

#include "core/compare/environmentsummary.h"
#include "core/compare/hostsummary.h"

#include <QDir>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace sv::ui {

EnvironmentPage::EnvironmentPage(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_list(new QListWidget(this)),
      m_text(new QPlainTextEdit(this)) {
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setTextFormat(Qt::RichText);
    m_list->setObjectName(QStringLiteral("environmentFiles"));
    // A captured file's name ends in its host ("environment/20261130-101010-node-a.txt"): cut
    // in the middle, the date and the host both stay; the whole path is its tooltip.
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_list);
    split->addWidget(m_text);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        m_text->setPlainText(
            row >= 0 && row < static_cast<int>(m_files.size())
                ? QString::fromStdString(m_files[static_cast<std::size_t>(row)].text)
                : QString());
    });
    showFiles({});
}

void EnvironmentPage::showDirectory(const QString& root, bool force) {
    if (root == m_root && !force) return;
    m_root = root;
    const quint64 generation = ++m_generation;
    if (root.isEmpty()) {
        showFiles({});
        emit loaded();
        return;
    }
    async::runInBackground(
        this, [dir = root.toStdString()] { return capturedFiles(std::filesystem::path(dir)); },
        [this, generation](std::vector<ReportFile> files) {
            if (generation != m_generation) return; // another directory since
            showFiles(std::move(files));
            emit loaded();
        },
        async::backgroundPool());
}

void EnvironmentPage::showFiles(std::vector<ReportFile> files) {
    m_files = std::move(files);
    m_list->clear();
    int widest = 0;
    for (const auto& f : m_files) {
        auto* item = new QListWidgetItem(QString::fromStdString(f.name), m_list);
        item->setToolTip(QDir::toNativeSeparators(QDir(m_root).filePath(item->text())));
        widest = std::max(widest, m_list->fontMetrics().horizontalAdvance(item->text()));
    }
    // The list as wide as its longest name (up to a third of the page), so names are whole
    // where the page allows.
    if (auto* split = qobject_cast<QSplitter*>(m_list->parentWidget()); split && widest > 0) {
        const int total = std::max(split->width(), 600);
        const int list = std::min(widest + 40, total / 3);
        split->setSizes({list, total - list});
    }
    if (m_files.empty()) {
        m_summary->setText(
            m_root.isEmpty()
                ? tr("Open a log directory to see the environment its campaign captured.")
                : tr("No campaign file or captured environment beside these logs. A campaign "
                     "run by ScaleView keeps them in its directory (campaign.json, "
                     "environment/: hostname, kernel, nvidia-smi, container image, versions)."));
        m_text->clear();
        return;
    }
    const auto env = summarizeEnvironment(m_files);
    QStringList parts;
    // First the machines the campaign ran on, with their devices: what a reader asks first.
    const QString hostLine =
        QString::fromStdString(describeHosts(summarizeHosts(m_files))).toHtmlEscaped();
    auto add = [&](const QString& name, const std::string& value) {
        if (!value.empty())
            parts << QStringLiteral("<b>%1</b> %2")
                         .arg(name, QString::fromStdString(value).toHtmlEscaped());
    };
    QStringList hosts;
    for (const auto& h : env.hosts)
        hosts << QString::fromStdString(h);
    if (hostLine.isEmpty()) add(tr("Hosts"), hosts.join(QStringLiteral(", ")).toStdString());
    add(tr("GPU"), env.gpuModel);
    add(tr("Driver"), env.driver);
    add(tr("CUDA"), env.cuda);
    add(tr("Container image"), env.containerImage);
    if (parts.isEmpty() && hostLine.isEmpty())
        parts << tr("No GPU, driver or container captured (no nvidia-smi).");
    QString summary = hostLine.isEmpty() ? QString() : QStringLiteral("<b>%1</b>").arg(hostLine);
    if (!parts.isEmpty())
        summary += (summary.isEmpty() ? QString() : QStringLiteral("<br>")) +
                   parts.join(QStringLiteral(" &nbsp;·&nbsp; "));
    m_summary->setText(summary);
    // The first host's file: what most readers open first.
    int first = 0;
    for (std::size_t i = 0; i < m_files.size(); ++i)
        if (m_files[i].name.rfind("environment/", 0) == 0 &&
            m_files[i].name.find(".txt") != std::string::npos) {
            first = static_cast<int>(i);
            break;
        }
    m_list->setCurrentRow(first);
}

QString EnvironmentPage::summaryText() const {
    return m_summary->text();
}

} // namespace sv::ui
