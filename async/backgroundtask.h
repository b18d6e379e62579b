#pragma once
// Work that may block (fsync, /proc scans, file commits) done on a worker thread, its result
// handed back to an object's thread through the event loop: the GUI thread never waits on a
// disk or a process. The launcher links QtCore only, so this is QThreadPool + a queued call.

#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <utility>

namespace sv::async {

// The pools are never destroyed: a read stuck in the kernel (a process in D state, a hung NFS
// server) must not hold the process's exit. Each kind of work has its own, so that work stuck
// in one never queues the others behind it.
// General blocking work: directory preparation, environment files, the output-space check.
QThreadPool* backgroundPool();
// /proc scans (ProcessTree): one stuck process makes every scan stuck, so they stay apart.
QThreadPool* scanPool();
// The journal and the logs' fdatasync: one thread, so the records reach the disk in order.
QThreadPool* recordQueue();
// The app's own work: reading and analysing logs, and writing what the user saves (history
// records, reference tables, campaign files, reports). A thread per core, owned by the
// application, so that this work ends before the application does. Never
// QThreadPool::globalInstance(): Qt's raster painting splits big fills over that pool and waits
// for them on the GUI thread, so a directory's reading there held every paint until it ended.
QThreadPool* workPool();

// Runs work() on a worker thread of pool, then done(result) in the main thread's event loop,
// unless context (an object of the main thread) is gone by then.
template <typename Work, typename Done>
void runInBackground(QObject* context, Work work, Done done, QThreadPool* pool = backgroundPool()) {
    QPointer<QObject> guard(context);
    pool->start([guard, work = std::move(work), done = std::move(done)]() mutable {
        auto result = std::make_shared<decltype(work())>(work());
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [guard, done = std::move(done), result]() mutable {
                if (guard) done(std::move(*result));
            },
            Qt::QueuedConnection);
    });
}

} // namespace sv::async
