#pragma once
// Copy, Open Log and Show in File Manager on the current row of a view (the Runs table, the
// warnings list): a context menu and shortcuts, opened through QDesktopServices.

#include <QObject>
#include <QString>

#include <functional>

class QAbstractItemView;
class QAction;
class QModelIndex;

namespace sv::ui {

class LogActions : public QObject {
    Q_OBJECT
  public:
    // What a row stands for: the text Copy puts on the clipboard and the log's absolute path
    // (empty when the row is about no file).
    struct Target {
        QString text;
        QString path;
        // No format reads the log: Teach ScaleView this Log… is offered.
        bool unread = false;
        int line = 0; // the candidate line to teach from (1-based; 0: none known)
    };
    using Resolver = std::function<Target(const QModelIndex&)>;

    LogActions(QAbstractItemView* view, Resolver resolve);

    QAction* copyAction() const { return m_copy; }
    QAction* openLogAction() const { return m_open; }
    QAction* showInFolderAction() const { return m_show; }
    QAction* teachAction() const { return m_teach; }

  private:
    Target current() const;
    void updateEnabled();

    QAbstractItemView* m_view;
    Resolver m_resolve;
    QAction* m_copy;
    QAction* m_open;
    QAction* m_show;
    QAction* m_teach;
};

} // namespace sv::ui
