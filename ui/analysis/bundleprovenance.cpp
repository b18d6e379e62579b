#include "ui/analysis/bundleprovenance.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace sv::ui {
namespace {

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("sv::ui::BundleProvenance", text, disambiguation, n);
}

// How many reasons the banner names before "and N more".
constexpr int kReasonsShown = 3;

} // namespace

QString BundleProvenance::origin() const {
    QString text = tr("bundled by %1 on %2 with ScaleView %3")
                       .arg(createdBy.isEmpty() ? tr("(no one named)") : createdBy,
                            created.isEmpty() ? tr("(no date)") : created,
                            scaleviewVersion.isEmpty() ? tr("(unknown)") : scaleviewVersion);
    text += signedBy.isEmpty() ? tr(", not signed") : tr(", signed with %1").arg(signedBy);
    return text;
}

QString BundleProvenance::mark() const {
    const QString name = QFileInfo(bundle).fileName();
    if (verified) return tr("verified: %1, %2").arg(name, origin());
    QString text = tr("NOT VERIFIED: %1").arg(name);
    if (!reasons.isEmpty()) text += QStringLiteral(": ") + reasons.first();
    if (reasons.size() > 1) text += tr(" (and %n more)", nullptr, int(reasons.size()) - 1);
    return text;
}

QString BundleProvenance::bannerText() const {
    const QString name = QFileInfo(bundle).fileName();
    if (verified)
        return tr("Bundle %1 verified: its %2 files match the manifest and every figure follows "
                  "from the logs; %3.")
            .arg(name)
            .arg(files)
            .arg(origin());
    const int n = static_cast<int>(reasons.size());
    QString text = tr("NOT VERIFIED: bundle %1 (%2); its figures are not to be trusted as they "
                      "stand.")
                       .arg(name, n == 1 ? tr("1 difference") : tr("%1 differences").arg(n));
    for (int i = 0; i < reasons.size() && i < kReasonsShown; ++i)
        text += QStringLiteral("\n• ") + reasons[i];
    if (reasons.size() > kReasonsShown)
        text += QStringLiteral("\n") +
                tr("… and %n more (All Reasons…).", nullptr, int(reasons.size()) - kReasonsShown);
    return text;
}

QString BundleProvenance::details() const {
    QStringList lines;
    lines << (verified ? tr("Verified.") : tr("Not verified:"));
    for (const QString& r : reasons)
        lines << QStringLiteral("• ") + r;
    for (const QString& n : notes)
        lines << tr("note: %1").arg(n);
    lines << tr("The bundle was %1.").arg(origin());
    lines << tr("Extracted into %1.").arg(folder);
    return lines.join(QLatin1Char('\n'));
}

} // namespace sv::ui
