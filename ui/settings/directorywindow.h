#pragma once
// The analysis window of each directory: a campaign run's when one brings it into view, else
// the user's remembered choice for it, else its campaign.json's, else DLPerf's; never the last
// directory's. What the user sets becomes the open directory's, remembered in AppSettings.

#include "core/load/campaignwindow.h"

#include <QString>

#include <optional>
#include <utility>

namespace sv::ui {

class AppSettings;

// Where the window of the directory open comes from.
enum class WindowSource {
    Dlperf,   // each log over its format's DLPerf defaults (NGC MXNet's: warmup 20, iterations 120)
    Campaign, // the campaign that wrote the logs
    User,     // what the user chose for this directory
};

// The window that measures each log over its format's DLPerf defaults.
MeasureOptions formatDefaults();

// "dlperf", "campaign" or "user", as exports say it.
const char* windowSourceName(WindowSource source);

struct WindowChoice {
    MeasureOptions measure;
    WindowSource source = WindowSource::Dlperf;
    QString campaignFile; // the directory's campaign.json, if it has one
};

class DirectoryWindow {
  public:
    explicit DirectoryWindow(AppSettings* settings) : m_settings(settings) {}

    // The next directory opened is measured with this (a run end of the campaign writing it).
    void setNext(const MeasureOptions& measure, WindowSource source);
    void dropNext() { m_next.reset(); }
    // root's logs were found, its campaign.json with them (or not): root's window.
    WindowChoice open(const QString& root, const CampaignWindowLookup& found);
    // The user set the window of the directory open: theirs, unless it is the directory's own.
    WindowChoice set(const MeasureOptions& measure);
    // The campaign of the directory open was opened: its window, the user's forgotten.
    WindowChoice useCampaign(const MeasureOptions& measure);
    const WindowChoice& current() const { return m_current; }

  private:
    AppSettings* m_settings;
    QString m_root;
    std::optional<CampaignWindow> m_campaign;
    std::optional<std::pair<MeasureOptions, WindowSource>> m_next;
    WindowChoice m_current;
};

} // namespace sv::ui
