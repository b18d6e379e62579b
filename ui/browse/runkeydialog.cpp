#include "ui/browse/runkeydialog.h"

#include "async/backgroundtask.h"
#include "core/load/sidecarwriter.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sv::ui {

namespace {

QSpinBox* countBox(QWidget* parent, int max, int value, const QString& tip) {
    auto* box = new QSpinBox(parent);
    box->setRange(0, max);
    box->setSpecialValueText(QStringLiteral("?")); // 0: not known, not written
    box->setValue(value);
    box->setToolTip(tip);
    return box;
}

std::filesystem::path fsPath(const QString& path) {
    return std::filesystem::path(QDir::cleanPath(path).toStdString());
}

} // namespace

RunKeyDialog::RunKeyDialog(const QString& log, const QString& root, const RunKey& key,
                           QWidget* parent)
    : QDialog(parent), m_log(log),
      m_root(QFileInfo(root).isFile() ? QFileInfo(root).absolutePath() : root), m_key(key) {
    setWindowTitle(tr("Keys of %1").arg(QFileInfo(log).fileName()));
    m_sidecar = QString::fromStdString(sidecarFor(fsPath(m_log), fsPath(m_root)).string());
    buildForm(key);
}

void RunKeyDialog::buildForm(const RunKey& key) {
    const bool gpusKnown = key.topology.ranks() > 0;
    m_nodes = countBox(this, 4096, gpusKnown ? key.topology.nodes : 0, tr("Nodes of the run"));
    m_gpusPerNode = countBox(this, 1024, gpusKnown ? key.topology.gpusPerNode : 0,
                             tr("GPUs (ranks) on each node"));
    m_batch = countBox(this, 1 << 20, key.batchPerDevice, tr("Batch size per device"));
    m_precision = new QComboBox(this);
    m_precision->setEditable(true);
    m_precision->addItems({QString(), QStringLiteral("fp32"), QStringLiteral("fp16"),
                           QStringLiteral("fp16-noamp"), QStringLiteral("bf16"),
                           QStringLiteral("tf32")});
    m_precision->setCurrentText(key.precision == "?" ? QString()
                                                     : QString::fromStdString(key.precision));
    m_model = new QLineEdit(key.model == "?" ? QString() : QString::fromStdString(key.model), this);
    const QFileInfo side(m_sidecar);
    const bool beside = side.absolutePath() == QFileInfo(m_log).absolutePath();
    lockWhatTheLogOrPathSays(key);
    m_where =
        new QLabel(tr("Writes %1%2 (only the fields you change; what the log or its path states "
                      "wins over the file, so those fields are greyed).")
                       .arg(QDir::toNativeSeparators(m_sidecar),
                            beside ? tr(", beside the log") : tr(", the folder's above the log")),
                   this);
    m_where->setWordWrap(true);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setVisible(false);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &RunKeyDialog::save);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout;
    form->addRow(tr("&Nodes:"), m_nodes);
    form->addRow(tr("&GPUs per node:"), m_gpusPerNode);
    form->addRow(tr("&Batch per device:"), m_batch);
    form->addRow(tr("&Precision:"), m_precision);
    form->addRow(tr("&Model:"), m_model);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_where);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
}

void RunKeyDialog::lockWhatTheLogOrPathSays(const RunKey& key) {
    // identifyRun takes the log, then the path, then a scaleview.json: a value written for a
    // field the log or path states would change nothing, so such a field is not offered.
    const auto lock = [](QWidget* field, KeySource source) {
        if (source != KeySource::Log && source != KeySource::Path) return;
        field->setEnabled(false);
        field->setToolTip(source == KeySource::Log ? tr("Stated by the log; it wins over a "
                                                        "scaleview.json")
                                                   : tr("Stated by the log's path; it wins over "
                                                        "a scaleview.json"));
    };
    const KeyOrigins& o = key.origins;
    // A count of the log's rank tags is no total it states: a scaleview.json's wins over it.
    if (!o.gpusCounted) {
        if (!o.nodesUnknown) lock(m_nodes, o.topology);
        lock(m_gpusPerNode, o.topology);
    }
    lock(m_batch, o.batch);
    lock(m_precision, o.precision);
    lock(m_model, o.model);
}

QPushButton* RunKeyDialog::saveButton() const {
    return m_buttons->button(QDialogButtonBox::Save);
}

SidecarEntry RunKeyDialog::changes() const {
    SidecarEntry e;
    const bool gpusKnown = m_key.topology.ranks() > 0;
    const int nodes = m_nodes->value(), perNode = m_gpusPerNode->value();
    const bool topologyChanged = nodes != (gpusKnown ? m_key.topology.nodes : 0) ||
                                 perNode != (gpusKnown ? m_key.topology.gpusPerNode : 0);
    if (topologyChanged && nodes > 0 && perNode > 0) {
        e.nodes = nodes;
        e.gpus = nodes * perNode;
    }
    if (m_batch->value() > 0 && m_batch->value() != m_key.batchPerDevice)
        e.batch = m_batch->value();
    const std::string precision = m_precision->currentText().trimmed().toStdString();
    if (!precision.empty() && precision != m_key.precision) e.precision = precision;
    const std::string model = m_model->text().trimmed().toStdString();
    if (!model.empty() && model != m_key.model) e.model = model;
    return e;
}

void RunKeyDialog::save() {
    if (m_saving) return;
    const SidecarEntry keys = changes();
    if (!keys.nodes && !keys.batch && !keys.precision && !keys.model) {
        m_error->setText(tr("Nothing changed: set a field to write it."));
        m_error->setVisible(true);
        return;
    }
    m_saving = true;
    saveButton()->setEnabled(false);
    m_error->setVisible(false);
    async::runInBackground(
        this,
        [log = fsPath(m_log), root = fsPath(m_root), keys] {
            return setSidecarEntry(log, root, keys);
        },
        [this](SidecarWriteResult r) {
            m_saving = false;
            saveButton()->setEnabled(true);
            if (r.error) {
                m_error->setText(QString::fromStdString(*r.error));
                m_error->setVisible(true);
                emit failed(m_error->text());
                return;
            }
            emit saved(QString::fromStdString(r.sidecar));
            accept();
        },
        async::workPool());
}

} // namespace sv::ui
