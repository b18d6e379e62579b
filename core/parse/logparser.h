#pragma once
// Streaming log parser: bytes in, speedometer samples out. Fed with chunks of any size (a file
// read, a process's live output); a line split across chunks is parsed once, whole; an
// unterminated last line is held, never parsed half, until finishTail() says the file is done.
// Never throws, whatever the bytes.

#include "core/model/parsecounters.h"
#include "core/model/sample.h"
#include "core/parse/lineformat.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace sv {

struct ParseOptions {
    // Lines longer than this are skipped and counted, so memory stays bounded.
    std::size_t maxLineBytes = std::size_t{1} << 20;
    // The most time a format's own line reader (a user format's pattern) may take over one
    // file: past it no further line is read, and counters().budgetLine says where. 0: no bound.
    double lineReaderSeconds = 30;
    MessageFormat format = mxnetSpeedometer();
};

// What finishTail() did with the bytes after the last newline.
enum class TailRead {
    None, // no such bytes, or no marker in them (a plain line: counted)
    Read, // a whole line of the format without its '\n': parsed
    Cut,  // a line of the format cut off mid-way: left out (pendingBytes() stays > 0)
};

class LogParser {
  public:
    using SampleHandler = std::function<void(const SpeedSample&)>;

    LogParser(ParseOptions options, SampleHandler handler);

    void feed(std::string_view chunk);
    // At the end of a finished file (never while it may still grow): its unterminated last
    // line. One with the marker is read where it ends as the last whole line of the format read
    // before it did (the same last byte; where both end in a number, the same count of digits
    // after its point): a final line that only lacks its '\n'. Otherwise it was cut mid-line
    // (a log cut mid-run) and is left out, never read half.
    TailRead finishTail();
    // Bytes after the last newline: a line still being written.
    std::size_t pendingBytes() const { return m_skipping ? m_skippedBytes : m_pending.size(); }
    // Bytes held in memory for that line: never more than maxLineBytes.
    std::size_t bufferedBytes() const { return m_pending.size(); }
    const ParseCounters& counters() const { return m_counters; }

  private:
    void scanCompleteLines(const char* begin, const char* end);
    bool readUsualLine(const char* data, std::size_t length);
    void endLine(std::size_t length, const char* data,
                 std::size_t markerPos = std::string_view::npos);
    // markerPos: where the marker starts in line, when the scan already knows.
    void processLine(std::string_view line, std::size_t markerPos);

    ParseOptions m_options;
    SampleHandler m_handler;
    ParseCounters m_counters;
    std::string m_pending;   // start of the current, unterminated line
    bool m_skipping = false; // the current line is over-long; drop bytes until its newline
    std::size_t m_skippedBytes = 0;
    bool m_dense = false; // the last whole line held the marker: search the next one alone
    // The last bytes of the last whole line that gave a value (processLine), for finishTail.
    char m_lastEnd[24] = {};
    std::size_t m_lastEndSize = 0;
    std::int64_t m_readerNs = 0; // time spent in the format's own line reader (parseWith)
};

} // namespace sv
