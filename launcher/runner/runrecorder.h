#pragma once
// A run's records on disk, written on a worker thread (open, write and fsync can block on a
// full or network disk, and the GUI thread never waits): before the run, the journal's start
// record and the new log; after it, the log made durable (fdatasync) and then the end record,
// so that the journal never says ok for a log a power loss could still shorten.

#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"

#include <QFile>
#include <QObject>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

class RunRecorder {
  public:
    struct Opened {
        std::string journalError;   // the start record could not be written: stop the campaign
        std::string logFailure;     // the log could not be created: the run failed (recorded)
        std::unique_ptr<QFile> log; // open, owned by the caller's thread
    };
    // The start record, then the log (a log that a resume found unfinished is moved aside; see
    // createRunLog). When the log cannot be created, its end record (failed) follows.
    static void open(Journal journal, PlannedRun run, std::string tag,
                     std::vector<std::vector<std::string>> commands, std::vector<std::string> hosts,
                     RunState before, QObject* context, std::function<void(Opened)> done);

    struct Closed {
        RunEnd end;               // as recorded: ok only when the log reached the disk
        std::string journalError; // the end record could not be written: stop the campaign
    };
    // Takes the log (its last writes flushed, or not: that is checked here), syncs and closes
    // it, then writes the end record; log may be null (no log was written).
    static void close(Journal journal, PlannedRun run, std::string tag, std::unique_ptr<QFile> log,
                      RunEnd end, QObject* context, std::function<void(Closed)> done);

    // The app quits during the run: its log closed and its end record written here and now (a
    // run being stopped for a timeout keeps that state), so that resume finds it cancelled
    // rather than guessing it interrupted. Blocking, and the app's last act.
    static void recordQuit(Journal& journal, const PlannedRun& run, const std::string& tag,
                           std::unique_ptr<QFile> log, std::optional<RunState> forced,
                           const std::string& forcedReason);
    // For tests: the call that makes a log durable (fdatasync by default; null restores it), so
    // that a failing disk can be stood in for.
    using SyncFunction = int (*)(int fd);
    static void setSyncFunction(SyncFunction sync);

    // Appends bytes to the log and flushes them to the kernel; false with the reason (disk full,
    // quota, file size limit) in *error.
    static bool append(QFile& log, const QByteArray& bytes, std::string* error);
};

} // namespace sv::launcher
