#include "ui/widgets/logactions.h"

#include "ui/widgets/teachdialog.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QUrl>

namespace sv::ui {

LogActions::LogActions(QAbstractItemView* view, Resolver resolve)
    : QObject(view), m_view(view), m_resolve(std::move(resolve)),
      m_copy(new QAction(tr("&Copy"), view)), m_open(new QAction(tr("&Open Log"), view)),
      m_show(new QAction(tr("Show in &File Manager"), view)),
      m_teach(new QAction(tr("&Teach ScaleView this Log…"), view)) {
    m_teach->setObjectName(QStringLiteral("teachLog"));
    connect(m_teach, &QAction::triggered, this, [this] {
        const Target t = current();
        if (!t.path.isEmpty()) openTeachDialog(m_view->window(), t.path, t.line);
    });
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetShortcut);
    m_open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_open->setShortcutContext(Qt::WidgetShortcut);
    connect(m_copy, &QAction::triggered, this, [this] {
        const Target t = current();
        if (!t.text.isEmpty()) QApplication::clipboard()->setText(t.text);
    });
    connect(m_open, &QAction::triggered, this, [this] {
        const Target t = current();
        if (!t.path.isEmpty()) QDesktopServices::openUrl(QUrl::fromLocalFile(t.path));
    });
    // File managers differ in how they select a file; its folder opens everywhere.
    connect(m_show, &QAction::triggered, this, [this] {
        const Target t = current();
        if (!t.path.isEmpty())
            QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(t.path).absolutePath()));
    });
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    view->addActions({m_copy, m_open, m_show, m_teach});
    updateEnabled();
}

LogActions::Target LogActions::current() const {
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() ? m_resolve(index) : Target{};
}

void LogActions::updateEnabled() {
    // The selection model changes with the view's model: follow the current one.
    auto refresh = [this] {
        const Target t = current();
        m_copy->setEnabled(!t.text.isEmpty());
        m_open->setEnabled(!t.path.isEmpty());
        m_show->setEnabled(!t.path.isEmpty());
        m_teach->setEnabled(!t.path.isEmpty() && t.unread);
        m_teach->setVisible(t.unread);
    };
    refresh();
    if (m_view->selectionModel())
        connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, refresh);
    if (m_view->model()) {
        connect(m_view->model(), &QAbstractItemModel::modelReset, this, refresh);
        connect(m_view->model(), &QAbstractItemModel::layoutChanged, this, refresh);
    }
}

} // namespace sv::ui
