#pragma once
// The general throughput reader: a log of no known family that states its throughput in words is
// read by the rule of docs/reading-logs.md ("The general reader"). The lines that carry one rate
// phrase (core/parse/ratephrase.h) share a template, the line with its numbers masked; the
// template that repeats in a throughput unit is the run's series of reports, read as the logs
// that report their own figures are (first tenth left out, median of the rest), and a single
// closing summary ("Total img/sec on 8 GPU(s)", "training throughput") counts as one report.
// MLPerf's :::MLLOG records are read by key ("throughput", tracked_stats' "throughput").
//
// Each series found becomes a format of its own at run time ("general-wps-1a2b3c4d"), whose
// marker is the rate's words and whose lines are those of its template alone, so that a report
// printed twice under two prefixes counts once.

#include "core/parse/logformat.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace sv {

// The best series of rate lines in head, said for the "not read" list and the Teach dialog even
// where it is too thin to be a run.
struct RateCandidate {
    std::int64_t line = 0; // 1-based line of its first report
    std::string text;      // that line, as written (at most 300 bytes)
    std::string token;     // the rate's words on it ("wps", "samples/sec")
    int reports = 0;       // lines of its template in head
};

// The general format of head, registered on first use; nullptr when head holds no series of
// training rates. *why says how it reads ("read by the general reader: its `wps` lines ..."),
// *candidate the best rate line seen either way.
// tail: the file's last bytes (whole lines), where a closing summary is, when head is not the
// whole file.
const LogFormat* detectGeneralFormat(std::string_view head, std::string* why = nullptr,
                                     RateCandidate* candidate = nullptr,
                                     std::string_view tail = {});

// Whether text holds a line with a rate phrase (a cheap look before a full detection).
bool holdsRateLine(std::string_view text);

// Whether a format is one the general reader made.
bool isGeneralFormat(const LogFormat& format);
// A general format by its id (formats registered this run only).
const LogFormat* findGeneralFormat(std::string_view id);

// Whether a file is, by its name, a document, source or configuration (.md, .rst, .html, .py,
// .sh, .ipynb, .yaml, .json, .csv ...): never a run, whatever log lines it quotes.
bool isDocumentName(std::string_view fileName);

} // namespace sv
