#include "ui/browse/environmentpage.h"
#include "async/backgroundtask.h"

#include "core/compare/environmentsummary.h"

#include <QDir>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

namespace sv::ui {

EnvironmentPage::EnvironmentPage(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_list(new QListWidget(this)),
      m_text(new QPlainTextEdit(this)) {
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setTextFormat(Qt::RichText);
    m_list->setObjectName(QStringLiteral("environmentFiles"));
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
    for (const auto& f : m_files)
        m_list->addItem(QString::fromStdString(f.name));
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
    auto add = [&](const QString& name, const std::string& value) {
        if (!value.empty())
            parts << QStringLiteral("<b>%1</b> %2")
                         .arg(name, QString::fromStdString(value).toHtmlEscaped());
    };
    QStringList hosts;
    for (const auto& h : env.hosts)
        hosts << QString::fromStdString(h);
    add(tr("Hosts"), hosts.join(QStringLiteral(", ")).toStdString());
    add(tr("GPU"), env.gpuModel);
    add(tr("Driver"), env.driver);
    add(tr("CUDA"), env.cuda);
    add(tr("Container image"), env.containerImage);
    if (parts.isEmpty()) parts << tr("No GPU, driver or container captured (no nvidia-smi).");
    m_summary->setText(parts.join(QStringLiteral(" &nbsp;·&nbsp; ")));
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
