#pragma once
// The campaigns the user ran or opened last (their campaign.json files), newest first, kept in
// the app's settings file beside the recent log directories.

#include <QString>
#include <QStringList>

namespace sv::ui {

class RecentCampaigns {
  public:
    explicit RecentCampaigns(QString settingsFile) : m_file(std::move(settingsFile)) {}

    QStringList list() const; // files that still exist
    void add(const QString& campaignFile);

  private:
    QString m_file;
};

} // namespace sv::ui
