#include "ui/settings/directorywindow.h"

#include "ui/settings/appsettings.h"
#include "core/load/runmeter.h"

namespace sv::ui {

MeasureOptions formatDefaults() {
    MeasureOptions m;
    m.formatDefaults = true;
    return m;
}

const char* windowSourceName(WindowSource source) {
    switch (source) {
    case WindowSource::Campaign:
        return "campaign";
    case WindowSource::User:
        return "user";
    case WindowSource::Dlperf:
        break;
    }
    return "dlperf";
}

void DirectoryWindow::setNext(const MeasureOptions& measure, WindowSource source) {
    m_next = {measure, source};
}

WindowChoice DirectoryWindow::open(const QString& root, const CampaignWindowLookup& found) {
    m_root = root;
    m_campaign = found.window;
    WindowChoice c;
    c.measure = formatDefaults();
    if (found.window) c.campaignFile = QString::fromStdString(found.window->file);
    if (auto next = std::exchange(m_next, std::nullopt)) {
        std::tie(c.measure, c.source) = *next;
        if (c.source == WindowSource::User) m_settings->setWindowFor(root, c.measure);
    } else if (auto mine = m_settings->windowFor(root)) {
        c.measure = *mine;
        c.source = WindowSource::User;
    } else if (found.window) {
        c.measure = found.window->measure;
        c.source = WindowSource::Campaign;
    }
    m_current = c;
    return c;
}

WindowChoice DirectoryWindow::set(const MeasureOptions& measure) {
    m_current.measure = measure;
    if (m_root.isEmpty()) { // nothing open: the next directory picks its own window
        m_current.source = WindowSource::Dlperf;
        return m_current;
    }
    // The directory's own window needs no remembering; anything else is the user's choice.
    const MeasureOptions own = m_campaign ? m_campaign->measure : formatDefaults();
    if (sameMeasure(measure, own)) {
        m_settings->setWindowFor(m_root, std::nullopt);
        m_current.source = m_campaign ? WindowSource::Campaign : WindowSource::Dlperf;
    } else {
        m_settings->setWindowFor(m_root, measure);
        m_current.source = WindowSource::User;
    }
    return m_current;
}

WindowChoice DirectoryWindow::useCampaign(const MeasureOptions& measure) {
    if (!m_root.isEmpty()) m_settings->setWindowFor(m_root, std::nullopt);
    m_current.measure = measure;
    m_current.source = WindowSource::Campaign;
    return m_current;
}

} // namespace sv::ui
