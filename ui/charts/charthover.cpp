#include "ui/charts/charthover.h"

#include "ui/charts/speedupchart.h"

#include <QStringList>

#include <cmath>

namespace sv::ui {

namespace {

QString number(double v, int decimals) {
    return QString::number(v, 'f', decimals);
}

QString signedPct(double v) {
    // No "-0.0 %": a difference that rounds to nothing reads as nothing.
    const double r = std::round(v * 10) / 10;
    if (r == 0) return QStringLiteral("0.0 %");
    return (r > 0 ? QStringLiteral("+") : QStringLiteral("−")) + number(std::abs(r), 1) +
           QStringLiteral(" %");
}

QString heading(const ScalingPoint& p) {
    return QStringLiteral("%1 — %2 GPU%3")
        .arg(QString::fromStdString(p.topology.name()))
        .arg(p.gpus)
        .arg(p.gpus == 1 ? QString() : QStringLiteral("s"));
}

// Measured against one reference at one topology: the Δ, or why there is none.
QString deltaLine(const ScalingPoint& p, const ReferenceCurve& ref) {
    const QString name = QString::fromStdString(ref.label);
    if (!ref.mismatch.empty())
        return QStringLiteral("Δ vs %1: – (%2)").arg(name, QString::fromStdString(ref.mismatch));
    auto it = ref.throughput.find(p.topology.name());
    if (it == ref.throughput.end() || it->second == 0.0)
        return QStringLiteral("Δ vs %1: – (no published figure at %2)")
            .arg(name, QString::fromStdString(p.topology.name()));
    if (!p.median) return QStringLiteral("Δ vs %1: – (no measured median)").arg(name);
    return QStringLiteral("Δ vs %1: %2")
        .arg(name, signedPct((*p.median - it->second) / it->second * 100.0));
}

} // namespace

QString ChartHover::barText(const ScalingData& d, int set, int index, Whisker whisker) {
    if (index < 0 || static_cast<std::size_t>(index) >= d.points.size()) return {};
    const auto measuredSets = static_cast<int>(d.others.size()) + 1;
    if (set >= 0 && set < measuredSets) {
        const ScalingPoint& p = set == 0 ? d.points[static_cast<std::size_t>(index)]
                                         : d.others[static_cast<std::size_t>(set - 1)]
                                               .points[static_cast<std::size_t>(index)];
        QStringList lines{heading(p)};
        // In a comparison each bar says whose it is.
        if (measuredSets > 1)
            lines << QString::fromStdString(
                set == 0 ? d.label : d.others[static_cast<std::size_t>(set - 1)].label);
        if (!p.median) return lines.join(QLatin1Char('\n')) + QStringLiteral("\nno usable runs");
        lines << QStringLiteral("Measured median: %1 %2 (%3 repeat%4)")
                     .arg(number(*p.median, 2), QString::fromStdString(d.unit))
                     .arg(p.repeats)
                     .arg(p.repeats == 1 ? QString() : QStringLiteral("s"));
        if (auto w = ThroughputChart::whiskerSpan(p, whisker))
            lines << QStringLiteral("Whisker, %1: %2 – %3")
                         .arg(ThroughputChart::whiskerName(whisker), number(w->first, 2),
                              number(w->second, 2));
        if (p.deltaPct)
            lines << QStringLiteral("Δ vs %1: %2")
                         .arg(QString::fromStdString(p.deltaAgainst), signedPct(*p.deltaPct));
        else if (!p.deltaNote.empty())
            lines << QStringLiteral("Δ: – (%1)").arg(QString::fromStdString(p.deltaNote));
        return lines.join(QLatin1Char('\n'));
    }
    const ScalingPoint& p = d.points[static_cast<std::size_t>(index)];
    QStringList lines{heading(p)};
    const auto r = static_cast<std::size_t>(set - measuredSets);
    if (r >= d.references.size()) return {};
    const ReferenceCurve& ref = d.references[r];
    auto it = ref.throughput.find(p.topology.name());
    lines << QStringLiteral("%1: %2").arg(
        QString::fromStdString(ref.fullName),
        it == ref.throughput.end() ? QStringLiteral("no published figure")
                                   : number(it->second, 2) + QStringLiteral(" images/s"));
    lines << deltaLine(p, ref);
    return lines.join(QLatin1Char('\n'));
}

QString ChartHover::legendText(const ScalingData& d, int reference) {
    if (reference < 0 || static_cast<std::size_t>(reference) >= d.references.size()) return {};
    const ReferenceCurve& ref = d.references[static_cast<std::size_t>(reference)];
    QString text = QString::fromStdString(ref.fullName);
    if (!ref.hardware.empty())
        text += QStringLiteral("\nHardware: ") + QString::fromStdString(ref.hardware);
    if (!ref.source.empty())
        text += QStringLiteral("\nSource: ") + QString::fromStdString(ref.source);
    return text;
}

QString ChartHover::pointText(const ScalingData& d, int curve, int gpus, bool efficiency) {
    if (curve == SpeedupChart::kPredicted || curve == SpeedupChart::kPredictedInterval) {
        for (const auto& p : d.predicted)
            if (p.gpus == gpus)
                return QStringLiteral("%1 (%2), predicted\n%3 %4, 95 %: %5–%6\n%7")
                    .arg(p.gpus)
                    .arg(QString::fromStdString(p.topology.name()), number(p.throughput, 1),
                         QString::fromStdString(d.unit), number(p.low, 1), number(p.high, 1),
                         QString::fromStdString(p.model));
        return {};
    }
    const ScalingPoint* point = nullptr;
    for (const auto& p : d.points)
        if (p.gpus == gpus && (!point || (p.speedup && !point->speedup))) point = &p;
    if (!point) return {};
    const ScalingPoint& p = *point;
    auto shown = [&](double speedup) {
        return efficiency ? number(100.0 * speedup / p.gpus, 1) + QStringLiteral(" % efficiency")
                          : number(speedup, 2) + QStringLiteral("× speedup");
    };
    QStringList lines{heading(p)};
    if (curve == SpeedupChart::kIdeal) {
        lines << QStringLiteral("Ideal: %1").arg(shown(p.gpus));
    } else if (curve == SpeedupChart::kMeasured) {
        if (!p.speedup) return lines.front() + QStringLiteral("\nno speedup (no 1n1g baseline)");
        const double s =
            efficiency ? p.efficiency.value_or(*p.speedup / p.gpus) * p.gpus : *p.speedup;
        lines << (d.others.empty()
                      ? QStringLiteral("Measured: %1").arg(shown(s))
                      : QStringLiteral("%1: %2").arg(QString::fromStdString(d.label), shown(s)));
        if (p.median)
            lines << QStringLiteral("Median: %1 %2")
                         .arg(number(*p.median, 2), QString::fromStdString(d.unit));
        if (p.deltaPct)
            lines << QStringLiteral("Δ vs %1: %2")
                         .arg(QString::fromStdString(p.deltaAgainst), signedPct(*p.deltaPct));
    } else if (curve <= SpeedupChart::kOtherSeries &&
               static_cast<std::size_t>(SpeedupChart::kOtherSeries - curve) < d.others.size()) {
        const SeriesCurve& other =
            d.others[static_cast<std::size_t>(SpeedupChart::kOtherSeries - curve)];
        const ScalingPoint* q = nullptr;
        for (const auto& o : other.points)
            if (o.gpus == gpus && (!q || (o.speedup && !q->speedup))) q = &o;
        if (!q || !q->speedup)
            return lines.front() +
                   QStringLiteral("\n%1: no speedup").arg(QString::fromStdString(other.label));
        const double s =
            efficiency ? q->efficiency.value_or(*q->speedup / q->gpus) * q->gpus : *q->speedup;
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(other.label), shown(s));
        if (q->median)
            lines << QStringLiteral("Median: %1 %2")
                         .arg(number(*q->median, 2), QString::fromStdString(d.unit));
    } else if (curve >= 0 && static_cast<std::size_t>(curve) < d.references.size()) {
        const ReferenceCurve& ref = d.references[static_cast<std::size_t>(curve)];
        const auto s = ref.speedupAt(p.topology);
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(ref.fullName),
                                              s ? shown(*s)
                                                : QStringLiteral("no published figure"));
        lines << deltaLine(p, ref);
    } else {
        return {};
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace sv::ui
