#pragma once
// The Controls and Warnings docks: each shown with the pages it is about, sized once the window
// is laid out, and saved as the user left them, not as the page shown at exit has them.

#include <QObject>

class QDockWidget;
class QListView;
class QMainWindow;

namespace sv::ui {

class ControlPanel;
class PageStack;
class WarningListModel;

class WindowDocks : public QObject {
    Q_OBJECT
  public:
    WindowDocks(QMainWindow* window, PageStack* pages, ControlPanel* controls,
                WarningListModel* warnings);

    QDockWidget* controls() const { return m_controls; }
    QDockWidget* warnings() const { return m_warnings; }
    QListView* warningView() const { return m_warningView; }

    // The window's state was restored (or not): the Controls dock as the user left it is theirs.
    void restored(bool stateRestored);
    // The page shown changed: the Controls dock only on the analysis pages, the warnings only
    // on the pages they are about.
    void followPage();
    // The Warnings dock's title counts them; none: a strip, some: a few readable at once.
    void showWarningCount(std::size_t count);
    // The window is shown: sized once, unless its saved state did.
    void sizeOnFirstShow();
    // Before the window's state is saved: the docks as the user left them.
    void restoreUsersChoice();

  private:
    void fitWarnings();

    QMainWindow* m_window;
    PageStack* m_pages;
    WarningListModel* m_model;
    QDockWidget* m_warnings;
    QDockWidget* m_controls;
    QListView* m_warningView;
    bool m_controlsWanted = true; // the user's choice for the Controls dock on analysis pages
    bool m_warningsHiddenByPage = false;
    bool m_sized = false; // by the saved state or the first show
};

} // namespace sv::ui
