#pragma once
// For launcher tests that drive QObjects in this process: a QCoreApplication for the test's
// lifetime, and a wait on a condition, with a deadline, that runs the event loop meanwhile.

#include <QCoreApplication>
#include <QElapsedTimer>
#include <functional>

namespace sv::test {

struct EventLoop {
    int argc = 1;
    char name[16] = "test_launcher";
    char* argv[2] = {name, nullptr};
    QCoreApplication app{argc, argv};
};

// True once done() holds; false when `ms` passed first.
inline bool waitFor(const std::function<bool()>& done, int ms) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms) return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    }
    return true;
}

} // namespace sv::test
