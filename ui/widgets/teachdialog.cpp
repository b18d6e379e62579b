#include "ui/widgets/teachdialog.h"

#include "async/backgroundtask.h"
#include "core/formats/userformat.h"
#include "core/model/numerics.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace sv::ui {
namespace {

QString numberLabel(const LineNumber& n, int index) {
    return QStringLiteral("#%1  %2%3  (column %4)")
        .arg(index + 1)
        .arg(QString::fromStdString(n.text))
        .arg(n.suffix ? QString(QChar(n.suffix)) : QString())
        .arg(n.position + 1);
}

} // namespace

TeachDialog::TeachDialog(const QString& log, QWidget* parent, const QString& formatDir)
    : QDialog(parent), m_logPath(log), m_formatDir(formatDir) {
    setWindowTitle(tr("Teach ScaleView this log"));
    setObjectName(QStringLiteral("teachDialog"));
    makeWidgets();
    layOut();
    connectFields();
    readFirstLines();
}

// The log's lines, the fields that describe the format, and the preview.
void TeachDialog::makeWidgets() {
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_intro = new QLabel(tr("Reading the first lines of %1…").arg(m_logPath), this);
    m_intro->setWordWrap(true);
    m_lines = new QListWidget(this);
    m_lines->setObjectName(QStringLiteral("teachLines"));
    m_lines->setFont(mono);
    m_lines->setUniformItemSizes(true);
    m_lines->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);

    m_value = new QComboBox(this);
    m_value->setObjectName(QStringLiteral("teachValue"));
    m_step = new QComboBox(this);
    m_step->setObjectName(QStringLiteral("teachStep"));
    m_stepTime = new QCheckBox(tr("The value is a step time (seconds per step)"), this);
    m_stepRate =
        new QCheckBox(tr("The value is steps/s: × the step's batch gives samples/s"), this);
    m_stepRate->setObjectName(QStringLiteral("teachStepRate"));
    m_stepRate->setToolTip(tr("tqdm's it/s counts steps. The figure is steps/s × the step's "
                              "global batch (batch per GPU × GPUs), from the log, the format or "
                              "Set batch, GPUs, precision…; where either is unknown it stays "
                              "steps/s, never multiplied by a guess."));
    m_batch = new QSpinBox(this);
    m_batch->setObjectName(QStringLiteral("teachBatch"));
    m_batch->setRange(0, 1 << 24);
    m_batch->setSpecialValueText(tr("from the log or path"));
    m_batch->setEnabled(false);
    m_perGpu = new QCheckBox(tr("The value is one GPU's (the run's is it × the GPUs)"), this);
    m_perGpu->setObjectName(QStringLiteral("teachPerGpu"));
    m_gpusPattern = new QLineEdit(this);
    m_gpusPattern->setObjectName(QStringLiteral("teachGpus"));
    m_gpusPattern->setFont(mono);
    m_gpusPattern->setPlaceholderText(
        tr("optional: a number (8), or a pattern such as Number of GPUs: (\\d+) (else the "
           "log's own words, its path or a scaleview.json)"));
    m_gpusPattern->setToolTip(tr("A pattern with one capture around the run's GPU count, tried "
                                 "on the log's first lines; it wins over what ScaleView reads "
                                 "of the log itself."));
    m_pattern = new QLineEdit(this);
    m_pattern->setObjectName(QStringLiteral("teachPattern"));
    m_pattern->setFont(mono);
    m_pattern->setToolTip(tr("RE2 syntax. (?P<value>…) is the throughput (or step time); "
                             "optional: (?P<step>…), (?P<scale>K|M), (?P<epoch>…), (?P<rank>…), "
                             "(?P<timestamp>…)."));
    m_id = new QLineEdit(this);
    m_id->setObjectName(QStringLiteral("teachId"));
    m_name = new QLineEdit(this);
    m_unit = new QComboBox(this);
    m_unit->setEditable(true);
    m_unit->addItems({QStringLiteral("samples/s"), QStringLiteral("images/s"),
                      QStringLiteral("tokens/s"), QStringLiteral("sequences/s"),
                      QStringLiteral("steps/s")});
    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("teachPreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

// The lines above the form (numbers, pattern, names, preview), Save and Cancel below.
void TeachDialog::layOut() {
    auto* form = new QFormLayout;
    auto* numbers = new QHBoxLayout;
    numbers->addWidget(new QLabel(tr("Value:"), this));
    numbers->addWidget(m_value, 1);
    numbers->addWidget(new QLabel(tr("Step:"), this));
    numbers->addWidget(m_step, 1);
    form->addRow(tr("Numbers in the line"), numbers);
    auto* stepTime = new QHBoxLayout;
    stepTime->addWidget(m_stepTime);
    stepTime->addWidget(m_stepRate);
    stepTime->addWidget(new QLabel(tr("batch per GPU:"), this));
    stepTime->addWidget(m_batch);
    stepTime->addStretch(1);
    form->addRow(QString(), stepTime);
    form->addRow(QString(), m_perGpu);
    form->addRow(tr("Pattern"), m_pattern);
    form->addRow(tr("GPU count"), m_gpusPattern);
    auto* names = new QHBoxLayout;
    names->addWidget(m_id, 1);
    names->addWidget(new QLabel(tr("Name:"), this));
    names->addWidget(m_name, 1);
    names->addWidget(new QLabel(tr("Unit:"), this));
    names->addWidget(m_unit);
    form->addRow(tr("Format id"), names);
    form->addRow(tr("Preview"), m_preview);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_save = buttons->addButton(tr("Save Format"), QDialogButtonBox::AcceptRole);
    m_save->setObjectName(QStringLiteral("teachSave"));
    m_save->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &TeachDialog::save);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(m_lines, 1);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(1000, 680);
}

// Every edit redrafts the format and, a moment later, its preview.
void TeachDialog::connectFields() {
    connect(m_lines, &QListWidget::currentRowChanged, this, &TeachDialog::chooseLine);
    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(250);
    connect(m_previewTimer, &QTimer::timeout, this, &TeachDialog::runPreview);

    connect(m_value, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_filling || !m_draft) return;
        m_draft->chooseValue(i);
        fillNumbers();
    });
    connect(m_step, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_filling || !m_draft) return;
        m_draft->chooseStep(i - 1);
        fillNumbers();
    });
    // A step time and a step rate exclude each other; either takes the batch.
    connect(m_stepTime, &QCheckBox::toggled, this, [this](bool on) {
        if (on) m_stepRate->setChecked(false);
        m_batch->setEnabled(on || m_stepRate->isChecked());
        syncFromFields();
    });
    connect(m_stepRate, &QCheckBox::toggled, this, [this](bool on) {
        if (on) m_stepTime->setChecked(false);
        m_batch->setEnabled(on || m_stepTime->isChecked());
        // The figure becomes samples/s; back to steps/s when the choice is undone.
        if (on && m_unit->currentText() == QLatin1String("steps/s"))
            m_unit->setCurrentText(QStringLiteral("samples/s"));
        else if (!on && m_draft && m_draft->unit == "samples/s" &&
                 m_unit->currentText() == QLatin1String("samples/s") && m_draft->line() >= 0) {
            FormatDraft probe = *m_draft;
            probe.chooseLine(m_draft->line());
            if (probe.unit == "steps/s") m_unit->setCurrentText(QStringLiteral("steps/s"));
        }
        syncFromFields();
    });
    connect(m_batch, &QSpinBox::valueChanged, this, &TeachDialog::syncFromFields);
    connect(m_perGpu, &QCheckBox::toggled, this, &TeachDialog::syncFromFields);
    connect(m_gpusPattern, &QLineEdit::textEdited, this, &TeachDialog::syncFromFields);
    connect(m_pattern, &QLineEdit::textEdited, this, &TeachDialog::syncFromFields);
    connect(m_id, &QLineEdit::textEdited, this, &TeachDialog::syncFromFields);
    connect(m_name, &QLineEdit::textEdited, this, &TeachDialog::syncFromFields);
    connect(m_unit, &QComboBox::currentTextChanged, this, &TeachDialog::syncFromFields);
}

void TeachDialog::readFirstLines() {
    // The first lines are read off the GUI thread (a log on a slow disk must not freeze it).
    const std::filesystem::path path = m_logPath.toStdString();
    async::runInBackground(
        this,
        [path] {
            std::string error;
            auto draft = FormatDraft::open(path, &error);
            return std::pair(std::move(draft), QString::fromStdString(error));
        },
        [this](std::pair<std::optional<FormatDraft>, QString> r) {
            opened(std::move(r.first), r.second);
        },
        async::workPool());
}

void TeachDialog::opened(std::optional<FormatDraft> draft, QString error) {
    if (!draft) {
        m_loadError = error;
        m_intro->setText(tr("Cannot teach from this file: %1").arg(error));
        return;
    }
    m_draft = std::move(draft);
    m_intro->setText(tr("<b>%1</b> is in no format ScaleView knows. Click a line that reports "
                        "throughput; then pick which of its numbers is the value and which "
                        "the step. The pattern drafted from it can be edited; the preview "
                        "reads the whole file with it.")
                         .arg(m_logPath.toHtmlEscaped()));
    for (const auto& l : m_draft->lines())
        m_lines->addItem(QString::fromStdString(l));
    m_id->setText(QString::fromStdString(m_draft->id));
    m_name->setText(QString::fromStdString(m_draft->name));
    const int lines = static_cast<int>(m_draft->lines().size());
    const int suggested = m_candidateLine > 0 && m_candidateLine <= lines
                              ? m_candidateLine - 1
                              : suggestThroughputLine(m_draft->lines());
    if (suggested >= 0) {
        m_lines->setCurrentRow(suggested); // chooseLine, through the signal
        m_lines->scrollToItem(m_lines->item(suggested), QAbstractItemView::PositionAtCenter);
    }
}

void TeachDialog::chooseLine(int row) {
    if (!m_draft || row < 0) return;
    if (m_lines->currentRow() != row) {
        m_lines->setCurrentRow(row); // comes back here through the signal
        return;
    }
    m_draft->chooseLine(row);
    m_filling = true;
    m_id->setText(QString::fromStdString(m_draft->id)); // the line's words, for a bare log name
    m_name->setText(QString::fromStdString(m_draft->name));
    m_unit->setCurrentText(QString::fromStdString(m_draft->unit));
    m_perGpu->setChecked(m_draft->perGpu);
    m_filling = false;
    fillNumbers();
}

void TeachDialog::fillNumbers() {
    m_filling = true;
    m_value->clear();
    m_step->clear();
    m_step->addItem(tr("(none)"));
    const auto& numbers = m_draft->numbers();
    for (int i = 0; i < static_cast<int>(numbers.size()); ++i) {
        const QString label = numberLabel(numbers[static_cast<std::size_t>(i)], i);
        m_value->addItem(label);
        m_step->addItem(label);
    }
    m_value->setCurrentIndex(m_draft->value());
    m_step->setCurrentIndex(m_draft->step() + 1);
    m_pattern->setText(QString::fromStdString(m_draft->pattern));
    m_pattern->setCursorPosition(0); // the start of the line reads first
    m_filling = false;
    syncFromFields();
}

void TeachDialog::syncFromFields() {
    if (m_filling || !m_draft) return;
    m_draft->pattern = m_pattern->text().toStdString();
    m_draft->id = m_id->text().trimmed().toStdString();
    m_draft->name = m_name->text().trimmed().toStdString();
    m_draft->unit = m_unit->currentText().trimmed().toStdString();
    m_draft->stepTime = m_stepTime->isChecked();
    m_draft->stepRate = m_stepRate->isChecked();
    m_draft->batch = m_batch->value();
    m_draft->perGpu = m_perGpu->isChecked();
    m_draft->gpusPattern = m_gpusPattern->text().trimmed().toStdString();
    // The quick look over the lines shown is cheap (at most 400 lines, linear-time matching).
    UserFormatError error;
    if (!m_draft->format(&error)) {
        m_previewTimer->stop();
        ++m_generation;
        m_running = false;
        m_previewMatches.reset();
        m_previewFigure.reset();
        showMatches({});
        m_preview->setText(
            QStringLiteral("<span style='color:#b00020'>%1</span>")
                .arg(QString::fromStdString((error.key.empty() ? "" : "\"" + error.key + "\": ") +
                                            error.reason)
                         .toHtmlEscaped()));
        m_save->setEnabled(false);
        return;
    }
    showMatches(m_draft->matchingLines());
    schedulePreview();
}

void TeachDialog::showMatches(const std::vector<int>& rows) {
    QFont plain = m_lines->font(), bold = plain;
    bold.setBold(true);
    std::vector<bool> hit(static_cast<std::size_t>(m_lines->count()), false);
    for (int r : rows)
        if (r >= 0 && r < m_lines->count()) hit[static_cast<std::size_t>(r)] = true;
    for (int i = 0; i < m_lines->count(); ++i) {
        QListWidgetItem* item = m_lines->item(i);
        const bool on = hit[static_cast<std::size_t>(i)];
        item->setFont(on ? bold : plain);
        item->setBackground(on ? QColor(0xdf, 0xf3, 0xe4) : QBrush());
    }
}

void TeachDialog::schedulePreview() {
    m_running = true;
    m_previewMatches.reset();
    m_previewFigure.reset();
    m_save->setEnabled(false);
    m_preview->setText(tr("Reading the whole file with this pattern…"));
    m_previewTimer->start();
}

void TeachDialog::runPreview() {
    if (!m_draft) return;
    const int generation = ++m_generation;
    FormatDraft draft = *m_draft; // a copy: the user may go on editing
    async::runInBackground(
        this,
        [draft = std::move(draft)] {
            UserFormatError error;
            return draft.preview(&error);
        },
        [this, generation](UserFormatPreview p) {
            if (generation != m_generation) return; // an older pattern's
            showPreview(p);
        },
        async::workPool());
}

// How many lines match, the figure and what it is of; a step rate's product spelled out
// ("1.55 steps/s × batch 32 = 49.60 samples/s"), or said to be steps/s where the batch is unknown.
void TeachDialog::showPreview(const UserFormatPreview& p) {
    m_running = false;
    m_previewMatches = p.matches;
    m_previewFigure = p.figure;
    // A step rate's figure is samples/s, whatever the unit field was left at.
    const bool stepRate = m_draft->stepRate && !m_draft->stepTime;
    const QString unit = QString::fromStdString(
        stepRate && m_draft->unit == "steps/s" ? std::string("samples/s") : m_draft->unit);
    QString text = (p.matches == 1 ? tr("1 line of %1 matches").arg(p.lines)
                                   : tr("%1 lines of %2 match").arg(p.matches).arg(p.lines));
    const auto fixed = [](double v) { return QString::fromStdString(formatFixed(v, 2)); };
    QString figure;
    if (p.figure && p.stepBatch > 0)
        figure = tr("%1 steps/s × batch %2 = %3 %4")
                     .arg(fixed(*p.figure / p.stepBatch))
                     .arg(p.stepBatch)
                     .arg(fixed(*p.figure), unit);
    else if (p.figure && !p.stepsOnly.empty())
        figure = tr("%1 steps/s").arg(fixed(*p.figure));
    else if (p.figure)
        figure = fixed(*p.figure) + QLatin1Char(' ') + unit;
    if (p.figure)
        text += tr("; throughput <b>%1</b>: %2")
                    .arg(figure, QString::fromStdString(p.rule).toHtmlEscaped());
    if (p.figure && p.gpus > 0) text += tr(", each value one GPU's × %1 GPUs").arg(p.gpus);
    if (p.figure && !p.stepsOnly.empty())
        text += QStringLiteral("<br><span style='color:#8a5a00'>%1</span>")
                    .arg(tr("Steps/s, not %1: %2")
                             .arg(unit, QString::fromStdString(p.stepsOnly))
                             .toHtmlEscaped());
    else if (!p.figure && !p.problem.empty())
        text += tr("; no figure: %1").arg(QString::fromStdString(p.problem).toHtmlEscaped());
    if (const std::string few = m_draft->coverage(); !few.empty())
        text += QStringLiteral("<br><span style='color:#b00020'>%1</span>")
                    .arg(QString::fromStdString(few).toHtmlEscaped());
    m_preview->setText(text);
    m_save->setEnabled(p.figure.has_value());
}

void TeachDialog::save() {
    if (!m_draft) return;
    m_save->setEnabled(false);
    const std::filesystem::path dir = m_formatDir.isEmpty()
                                          ? userFormatDirectory()
                                          : std::filesystem::path(m_formatDir.toStdString());
    FormatDraft draft = *m_draft;
    struct Saved {
        QString path, error;
        std::shared_ptr<const UserFormat> format;
    };
    async::runInBackground(
        this,
        [draft = std::move(draft), dir] {
            Saved s;
            std::string error;
            if (dir.empty()) {
                s.error = tr("neither XDG_CONFIG_HOME nor HOME is set");
                return s;
            }
            const auto path = draft.save(dir, &error);
            if (!path) {
                s.error = QString::fromStdString(error);
                return s;
            }
            UserFormatError e;
            s.format = UserFormat::load(*path, &e);
            if (!s.format) s.error = QString::fromStdString(e.text());
            s.path = QString::fromStdString(path->string());
            return s;
        },
        [this](Saved s) {
            if (!s.format) {
                m_preview->setText(QStringLiteral("<span style='color:#b00020'>%1</span>")
                                       .arg(tr("Not saved: %1").arg(s.error).toHtmlEscaped()));
                m_save->setEnabled(true);
                return;
            }
            emit formatSaved(s.path, s.format);
            accept();
        },
        async::workPool());
}

namespace {
std::function<void(const QString&)>& afterTeach() {
    static std::function<void(const QString&)> f;
    return f;
}
} // namespace

void setAfterTeach(std::function<void(const QString& formatId)> afterSave) {
    afterTeach() = std::move(afterSave);
}

TeachDialog* openTeachDialog(QWidget* parent, const QString& log, int line) {
    auto* dialog = new TeachDialog(log, parent);
    dialog->setCandidateLine(line);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &TeachDialog::formatSaved, dialog,
                     [](const QString&, std::shared_ptr<const UserFormat> format) {
                         std::string why;
                         // The same id saved again with another pattern: the new one is read
                         // from the next start on (a registered format lives as long as the
                         // program).
                         registerUserFormat(format, &why);
                         if (afterTeach()) afterTeach()(QString::fromStdString(format->id()));
                     });
    dialog->show();
    return dialog;
}

} // namespace sv::ui
