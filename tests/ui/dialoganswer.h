#pragma once
// Answers the next modal file dialog, as a user does, from inside the event loop the dialog runs.

#include <QApplication>
#include <QDialog>
#include <QFileDialog>
#include <QLineEdit>
#include <QTimer>

#include <utility>

namespace sv::test {

// Types path into the name field of the next modal QFileDialog and accepts it. Not
// selectFile(): it leaves the name alone while the name field has focus, and whether focus has
// arrived by then is a race (CI lost it once: the default name was kept).
class FileDialogAnswer {
  public:
    explicit FileDialogAnswer(QString path) : m_path(std::move(path)) {
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            auto* d = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            m_timer.stop();
            if (auto* name = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))) {
                name->setFocus();
                name->setText(m_path);
                static_cast<QDialog*>(d)->accept(); // QFileDialog makes it protected
            } else {
                static_cast<QDialog*>(d)->reject(); // no name field: the caller's wait fails
            }
        });
        m_timer.start(20);
    }

  private:
    QString m_path;
    QTimer m_timer;
};

} // namespace sv::test
