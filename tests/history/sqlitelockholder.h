#pragma once
// Another program holding a SQLite history's lock: a forked child process opens the file through
// Qt SQL and takes BEGIN IMMEDIATE (the write lock: readers go on, writers wait) or BEGIN
// EXCLUSIVE (readers wait too), and keeps it until the holder is destroyed. A real second process,
// because SQLite's locks are per process: a second connection in the test's own would not do.

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace sv::test {

class SqliteLockHolder {
  public:
    enum class Lock { Immediate, Exclusive };

    // The caller must have no connection of its own open on file: SQLite's locks do not survive
    // a fork with a connection in both processes.
    SqliteLockHolder(const std::filesystem::path& file, Lock lock) {
        int ready[2], release[2];
        if (::pipe(ready) != 0) return;
        if (::pipe(release) != 0) {
            ::close(ready[0]);
            ::close(ready[1]);
            return;
        }
        m_pid = ::fork();
        if (m_pid == 0) {
            ::close(ready[0]);
            ::close(release[1]);
            hold(file, lock, ready[1], release[0]);
            ::_exit(0);
        }
        ::close(ready[1]);
        ::close(release[0]);
        m_release = release[1];
        char answer = 0;
        m_held = m_pid > 0 && ::read(ready[0], &answer, 1) == 1 && answer == '1';
        ::close(ready[0]);
    }
    ~SqliteLockHolder() { letGo(); }
    SqliteLockHolder(const SqliteLockHolder&) = delete;
    SqliteLockHolder& operator=(const SqliteLockHolder&) = delete;

    bool held() const { return m_held; }
    // Ends the lock and the child (its transaction rolled back).
    void letGo() {
        if (m_release >= 0) ::close(m_release);
        m_release = -1;
        if (m_pid > 0) ::waitpid(m_pid, nullptr, 0);
        m_pid = -1;
        m_held = false;
    }

  private:
    // In the child: take the lock, say so on ready, keep it until release reads its end.
    static void hold(const std::filesystem::path& file, Lock lock, int ready, int release) {
        const QString name = QStringLiteral("lock-holder");
        char answer = '0';
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(QString::fromStdString(file.string()));
            QSqlQuery q(db);
            if (db.open() && q.exec(lock == Lock::Immediate ? QStringLiteral("BEGIN IMMEDIATE")
                                                            : QStringLiteral("BEGIN EXCLUSIVE")))
                answer = '1';
            [[maybe_unused]] const auto said = ::write(ready, &answer, 1);
            char byte = 0;
            [[maybe_unused]] const auto done = ::read(release, &byte, 1); // 0: the test let go
            q.exec(QStringLiteral("ROLLBACK"));
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }

    pid_t m_pid = -1;
    int m_release = -1;
    bool m_held = false;
};

} // namespace sv::test
