#include "recentcampaigns.h"

#include <QFileInfo>
#include <QSettings>

namespace sv::ui {
namespace {
constexpr int kKept = 10;
const QString kKey = QStringLiteral("run/recentCampaigns");
} // namespace

QStringList RecentCampaigns::list() const {
    if (m_file.isEmpty()) return {};
    const QSettings settings(m_file, QSettings::IniFormat);
    QStringList out;
    // Written by us, but the file is the user's: anything that is not a path is ignored.
    for (const QString& f : settings.value(kKey).toStringList())
        if (QFileInfo(f).isFile() && !out.contains(f)) out << f;
    return out;
}

void RecentCampaigns::add(const QString& campaignFile) {
    if (m_file.isEmpty()) return;
    const QString path = QFileInfo(campaignFile).absoluteFilePath();
    QStringList files = list();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kKept)
        files.removeLast();
    QSettings settings(m_file, QSettings::IniFormat);
    settings.setValue(kKey, files);
}

} // namespace sv::ui
