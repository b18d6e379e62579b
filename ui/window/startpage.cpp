#include "ui/window/startpage.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace sv::ui {

namespace {
// Where the samples' ResNet-50 tree sits below a samples folder (the layout `make run` opens).
const char* const kSampleTree = "logs/ngc/mxnet/resnet50";
} // namespace

StartPage::StartPage(QWidget* parent)
    : QWidget(parent), m_open(new QPushButton(tr("&Open Log Directory…"), this)),
      m_samples(new QPushButton(tr("Open &Sample Logs"), this)),
      m_run(new QPushButton(tr("&Run a Benchmark…"), this)) {
    auto* title = new QLabel(tr("<h1>ScaleView</h1>"), this);
    auto* what = new QLabel(
        tr("<p>Distributed deep-learning throughput, measured as "
           "<a href=\"https://github.com/Oneflow-Inc/DLPerf\">DLPerf</a> does: open the logs of a "
           "benchmark to see throughput, speedup and scaling efficiency per topology, compared "
           "with the published tables — or run a benchmark here, on this machine or over "
           "SSH.</p><p>You can also drop a log directory on this window.</p>"),
        this);
    what->setWordWrap(true);
    what->setOpenExternalLinks(true);
    what->setMinimumWidth(440);
    what->setMaximumWidth(560);
    const QString samples = samplesDirectory();
    m_samples->setEnabled(!samples.isEmpty());
    m_samples->setToolTip(samples.isEmpty() ? tr("The sample logs are not installed")
                                            : QDir::toNativeSeparators(samples));
    m_open->setDefault(true);
    for (auto* b : {m_open, m_samples, m_run})
        b->setMinimumWidth(240);
    connect(m_open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(m_samples, &QPushButton::clicked, this,
            [this, samples] { emit samplesRequested(samples); });
    connect(m_run, &QPushButton::clicked, this, &StartPage::runRequested);

    auto* column = new QVBoxLayout;
    column->addWidget(title);
    column->addWidget(what);
    column->addSpacing(12);
    column->addWidget(m_open, 0, Qt::AlignLeft);
    column->addWidget(m_samples, 0, Qt::AlignLeft);
    column->addWidget(m_run, 0, Qt::AlignLeft);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addLayout(column);
    row->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(2);
}

QString StartPage::samplesDirectory() {
    QStringList candidates{
        // Installed: <prefix>/bin/scaleview and <prefix>/share/scaleview/samples.
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/scaleview/samples/") +
            QLatin1String(kSampleTree),
        QStringLiteral("/usr/share/scaleview/samples/") + QLatin1String(kSampleTree)};
#ifdef SCALEVIEW_SOURCE_SAMPLES
    // A build tree runs on the source tree's samples, as `make run` does.
    candidates << QStringLiteral(SCALEVIEW_SOURCE_SAMPLES "/") + QLatin1String(kSampleTree);
#endif
    for (const QString& c : candidates)
        if (QFileInfo(c).isDir()) return QDir::cleanPath(QFileInfo(c).absoluteFilePath());
    return {};
}

} // namespace sv::ui
