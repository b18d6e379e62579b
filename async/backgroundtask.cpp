#include "async/backgroundtask.h"

#include <QThread>

namespace sv::async {

QThreadPool* backgroundPool() {
    // Intentionally leaked (see the header); threads beyond the cores because most of this work
    // waits on a disk or the kernel rather than computing.
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(8);
        return p;
    }();
    return pool;
}

QThreadPool* scanPool() {
    // A few threads: ProcessTree starts no scan while one is stuck, so these are never all
    // taken by stuck scans for long.
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(4);
        return p;
    }();
    return pool;
}

QThreadPool* recordQueue() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(1);
        return p;
    }();
    return pool;
}

QThreadPool* workPool() {
    static QPointer<QThreadPool> pool;
    if (!pool) {
        pool = new QThreadPool(QCoreApplication::instance()); // leaked only with no application
        pool->setMaxThreadCount(QThread::idealThreadCount());
    }
    return pool;
}

} // namespace sv::async
