#pragma once
// A run's output as it arrives, from the Runner's side: appended to its log (each write checked:
// a full disk stops the campaign), its last bytes kept (the reason a run failed is usually
// there), read by core's parser for the progress and the run's figures, and watched for what
// ends a run early: a rank that cannot reach the rendezvous, a node's line saying its workers
// failed.

#include "launcher/campaign/plannedrun.h"

#include "core/measure/runanalyzer.h"
#include "core/parse/logparser.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace sv::launcher {

class RunOutput {
  public:
    // log: the run's new log, open; failureMarker: what a per-node launcher prints when its
    // node's workers failed (empty: nothing to watch for).
    RunOutput(std::unique_ptr<QFile> log, const PlannedRun& run, MeasureOptions measure,
              std::string failureMarker);
    // The parser's handler holds this object: it stays where it was made.
    RunOutput(const RunOutput&) = delete;
    RunOutput& operator=(const RunOutput&) = delete;

    // What one chunk brought.
    struct Read {
        std::string logError; // the log could not take it (the first failed write only)
        std::optional<std::string> unreachable; // a rank cannot reach the rendezvous: why
        std::string failureLine;  // the line with the failure marker, trimmed; empty: none
        bool firstSample = false; // the run's first speed line was in it
        bool advanced = false;    // the iterations every rank has logged went up
    };
    // A chunk of whole lines (a lone process's bytes as they come).
    Read add(const QByteArray& chunk);

    std::int64_t iterationsDone() const { return m_analyzer.iterationsDone(); }
    double lastSpeed() const { return m_analyzer.lastSpeed(); }
    // Seconds since the first speed line; negative: none yet.
    double sinceFirstSample() const;
    const std::string& tail() const { return m_tail; }
    // What the parser and the analyzer made of everything read.
    RunResult result() const;
    // The log, for the run's records (synced and closed there); null once taken.
    std::unique_ptr<QFile> takeLog() { return std::move(m_log); }

  private:
    std::unique_ptr<QFile> m_log;
    std::string m_logError; // the first failed write: nothing more is written
    std::string m_failureMarker;
    RunAnalyzer m_analyzer;
    LogParser m_parser;
    std::string m_tail;
    QElapsedTimer m_sinceFirstSample;
    bool m_sampled = false; // a speed line arrived in the chunk being read
    std::int64_t m_lastIteration = 0;
};

} // namespace sv::launcher
