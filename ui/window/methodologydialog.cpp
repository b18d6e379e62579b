#include "ui/window/methodologydialog.h"

#include "core/stats/casestats.h"

#include <QDialogButtonBox>
#include <QKeySequence>
#include <QShortcut>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace sv::ui {

MethodologyDialog::MethodologyDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Methodology"));
    auto* text = new QTextBrowser(this);
    text->setOpenExternalLinks(true);
    text->setHtml(html());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Escape closes it wherever the focus is (the text browser kept it from the dialog).
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(escape, &QShortcut::activated, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text, 1);
    layout->addWidget(buttons);
    resize(640, 560);
}

QString MethodologyDialog::html() {
    // The thresholds quoted are the core's own defaults, so the page cannot drift from them.
    const TrustOptions trust;
    auto pct = [](double v) { return QStringLiteral("%1 %").arg(v, 0, 'f', 0); };
    return tr("<h2>How ScaleView measures</h2>"
              "<p>ScaleView reads the logs of a "
              "<a href=\"https://github.com/Oneflow-Inc/DLPerf\">DLPerf</a> benchmark: one log per "
              "run, a run per topology (nodes × GPUs per node) and repeat. Each log prints one "
              "speed line per rank and iteration. The first <i>warmup</i> iterations are left "
              "out; the window runs to <i>iterations</i> (DLPerf: 20 and 120).</p>"
              "<h3>Two methods, as DLPerf computes them</h3>"
              "<p><b>Time method</b> (DLPerf's <code>extract_mxnet_logs_time.py</code>, the "
              "default): the images processed in the window divided by the time between the "
              "window's first and last speed lines.<br><b>Speed method</b> "
              "(<code>extract_mxnet_logs.py</code>): per iteration, the median of the ranks' "
              "printed speeds, averaged over the window. Both are computed for every run; the "
              "Runs page shows their difference.</p>"
              "<h3>Over repeats</h3>"
              "<p>A topology's figure is the <b>median</b> of its complete repeats (DLPerf's "
              "<code>median_speed</code>); a run that stops early or fails is left out and "
              "listed in Warnings. The <b>95 % interval</b> of the median comes from 10 000 "
              "bootstrap resamples of the repeats (seeded: the same runs give the same "
              "interval); with few repeats it is wide, as it should be.</p>"
              "<h3>Scaling</h3>"
              "<p><b>Speedup</b> is the median over the median of one GPU (1n1g), rounded as "
              "DLPerf does. <b>Efficiency</b> is speedup divided by the GPU count: 100 % is "
              "perfect linear scaling. <b>Δ</b> compares the median, measured by the published "
              "table's own method (time or speed, whatever method the rest uses), with its figure "
              "for the same precision and batch size: green within 2 %, amber 2–5 % below, red "
              "further below.</p>"
              "<h3>Case warnings</h3><ul>"
              "<li><b>high-cv</b>: the repeats' coefficient of variation is above %1 — they "
              "disagree; rerun on a quiet machine or add repeats.</li>"
              "<li><b>superlinear</b>: efficiency more than %2 above linear — the smaller case "
              "was probably disturbed.</li>"
              "<li><b>methods-disagree</b>: a run's time and speed methods differ by more than "
              "%3 — the pace changed inside the window.</li>"
              "<li><b>slow-rank</b>: the ranks' mean speeds spread by more than %4 — a slow "
              "device, node or link.</li>"
              "<li><b>drift</b>: the window's last third ran more than %5 slower than its first "
              "— throttling or a neighbour.</li>"
              "<li><b>few-repeats</b>: fewer than %6 usable repeats — the median and its "
              "interval mean little yet.</li>"
              "<li><b>outlier</b> (Runs page): a repeat whose modified z-score (median absolute "
              "deviation) is above 3.5; it still counts.</li></ul>")
        .arg(pct(trust.cvPct), pct(trust.superlinearPct), pct(trust.methodsPct),
             pct(trust.slowRankPct), pct(trust.driftPct))
        .arg(trust.minRepeats);
}

} // namespace sv::ui
