#include "ui/window/windowdocks.h"

#include "ui/browse/controlpanel.h"
#include "ui/models/warninglistmodel.h"
#include "ui/window/pagestack.h"

#include <QAction>
#include <QDockWidget>
#include <QListView>
#include <QMainWindow>

#include <utility>

namespace sv::ui {

WindowDocks::WindowDocks(QMainWindow* window, PageStack* pages, ControlPanel* controls,
                         WarningListModel* warnings)
    : QObject(window), m_window(window), m_pages(pages), m_model(warnings),
      m_warnings(new QDockWidget(tr("Warnings"), window)),
      m_controls(new QDockWidget(tr("Controls"), window)),
      m_warningView(new QListView(m_warnings)) {
    m_controls->setObjectName(QStringLiteral("controls"));
    m_controls->setWidget(controls);
    // On the right: hidden on the Run, Environment and History pages, a dock on the left took
    // the tab bar with it, and the tabs jumped sideways under the pointer.
    window->addDockWidget(Qt::RightDockWidgetArea, m_controls);
    connect(m_controls->toggleViewAction(), &QAction::triggered, this,
            [this](bool on) { m_controlsWanted = on; });
    m_warningView->setModel(warnings);
    m_warningView->setWordWrap(true);
    // Without warnings the panel may shrink to a line or two; the pages get the room.
    m_warningView->setMinimumHeight(window->fontMetrics().lineSpacing() * 2);
    m_warnings->setObjectName(QStringLiteral("warnings"));
    m_warnings->setWidget(m_warningView);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_warnings);
}

void WindowDocks::restored(bool stateRestored) {
    m_sized = stateRestored;
    m_controlsWanted = !m_controls->isHidden();
}

void WindowDocks::followPage() {
    m_controls->setVisible(m_pages->isAnalysisPageShown() && m_controlsWanted);
    // The analysis' warnings say nothing under the start page, the Run panel or the history;
    // they come back with the pages they are about.
    const bool apart = !m_pages->isWarningsPageShown();
    if (apart && !m_warnings->isHidden()) {
        m_warnings->hide();
        m_warningsHiddenByPage = true;
    } else if (!apart && m_warningsHiddenByPage) {
        m_warnings->show();
        m_warningsHiddenByPage = false;
        if (m_model->rowCount() > 0) fitWarnings();
    }
}

void WindowDocks::showWarningCount(std::size_t count) {
    m_warnings->setWindowTitle(tr("Warnings (%1)").arg(count));
    // None: a strip, the pages get the room. Some: a few of them readable at once, not the one
    // line the empty strip left.
    if (count == 0)
        m_window->resizeDocks({m_warnings}, {1}, Qt::Vertical);
    else
        fitWarnings();
}

void WindowDocks::fitWarnings() {
    const int fewLines = m_window->fontMetrics().lineSpacing() * 6;
    if (m_warnings->height() < fewLines)
        m_window->resizeDocks({m_warnings}, {fewLines}, Qt::Vertical);
}

void WindowDocks::sizeOnFirstShow() {
    // Docks can only be sized once the window is laid out: the warnings panel a strip, the
    // controls a column, the pages the rest.
    if (std::exchange(m_sized, true)) return;
    const int height = m_window->height();
    const int width = m_window->width();
    // On a small screen (1024×700) the Results table needs the width more than the controls do.
    m_window->resizeDocks({m_warnings}, {qMin(100, height / 8)}, Qt::Vertical);
    m_window->resizeDocks({m_controls}, {qBound(220, width / 5, 300)}, Qt::Horizontal);
}

void WindowDocks::restoreUsersChoice() {
    m_controls->setVisible(m_controlsWanted);
    if (m_warningsHiddenByPage) m_warnings->show();
}

} // namespace sv::ui
