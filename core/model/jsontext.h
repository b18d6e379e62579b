#pragma once
// JSON as ScaleView writes it, for every JSON output (summaries, comparisons, DLPerf's JSON,
// reference tables, the history, probes): a string that is not UTF-8 (a log's stray byte, a
// value cut inside a character) never aborts the output: its invalid bytes are written as
// U+FFFD (nlohmann's default throws, and the command aborts).

#include <nlohmann/json.hpp>

#include <string>

namespace sv {

// j.dump(indent), invalid UTF-8 replaced rather than thrown on (indent -1: one line).
template <typename Json> std::string jsonText(const Json& j, int indent = -1) {
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

} // namespace sv
