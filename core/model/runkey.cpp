#include "core/model/runkey.h"

#include <charconv>

namespace sv {
namespace {

bool parsePositive(std::string_view s, int& out) {
    if (s.empty() || s.size() > 9) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    std::from_chars(s.data(), s.data() + s.size(), out);
    return true;
}

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.';
}

bool isModelChar(char c) {
    return isNameChar(c) || c == '_';
}

} // namespace

std::string_view keySourceName(KeySource source) {
    switch (source) {
    case KeySource::Log:
        return "log";
    case KeySource::Path:
        return "path";
    case KeySource::Sidecar:
        return "scaleview.json";
    case KeySource::User:
        return "user";
    case KeySource::Format:
        return "format file";
    case KeySource::Unknown:
        break;
    }
    return "?";
}

std::string batchText(const RunKey& key) {
    return key.batchPerDevice > 0 ? std::to_string(key.batchPerDevice) : std::string("?");
}

std::string topologyText(const RunKey& key) {
    if (key.topology.ranks() <= 0) return "?";
    if (key.origins.nodesUnknown) return std::to_string(key.topology.ranks()) + " GPUs";
    return key.topology.name();
}

std::string Topology::name() const {
    return std::to_string(nodes) + "n" + std::to_string(gpusPerNode) + "g";
}

bool topologyLess(const Topology& a, const Topology& b) {
    if (a.ranks() != b.ranks()) return a.ranks() < b.ranks();
    return a.nodes < b.nodes;
}

std::optional<Topology> parseTopology(std::string_view s, std::string* why) {
    const auto n = s.find('n');
    if (n == std::string_view::npos || s.empty() || s.back() != 'g') return std::nullopt;
    Topology t;
    if (!parsePositive(s.substr(0, n), t.nodes) ||
        !parsePositive(s.substr(n + 1, s.size() - n - 2), t.gpusPerNode))
        return std::nullopt;
    if (t.nodes < 1 || t.gpusPerNode < 1) return std::nullopt;
    // In 64 bits: the product of two 9-digit counts would overflow an int.
    const long long ranks = static_cast<long long>(t.nodes) * t.gpusPerNode;
    if (ranks > kMaxRanks) {
        if (why)
            *why = std::string(s) + " is " + std::to_string(ranks) + " GPUs, more than " +
                   std::to_string(kMaxRanks) + ": not a topology";
        return std::nullopt;
    }
    return t;
}

std::optional<LogName> parseLogName(std::string_view name, std::string* why) {
    auto fail = [&](const char* reason) -> std::optional<LogName> {
        if (why) *why = reason;
        return std::nullopt;
    };
    if (name.size() < 4 || name.substr(name.size() - 4) != ".log") return fail("not a .log file");
    name.remove_suffix(4);
    // model_bB_precision_repeat, split from the end: the model may hold '_' (OneFlow's
    // bert_base_b96_fp32_0.log), the three fields after it may not.
    const auto last = name.rfind('_');
    const auto second = last == std::string_view::npos || last == 0 ? std::string_view::npos
                                                                    : name.rfind('_', last - 1);
    const auto first = second == std::string_view::npos || second == 0
                           ? std::string_view::npos
                           : name.rfind('_', second - 1);
    if (first == std::string_view::npos)
        return fail("name is not <model>_b<batch>_<precision>_<repeat>.log");
    LogName out;
    out.model = std::string(name.substr(0, first));
    const std::string_view batch = name.substr(first + 1, second - first - 1);
    const std::string_view precision = name.substr(second + 1, last - second - 1);
    const std::string_view repeat = name.substr(last + 1);
    if (out.model.empty()) return fail("empty model name");
    for (char c : out.model)
        if (!isModelChar(c)) return fail("model name has characters other than [A-Za-z0-9._-]");
    if (batch.size() < 2 || batch[0] != 'b' ||
        !parsePositive(batch.substr(1), out.batchPerDevice) || out.batchPerDevice < 1)
        return fail("batch size is not b<number>");
    if (precision.empty()) return fail("empty precision");
    for (char c : precision)
        if (!isNameChar(c)) return fail("precision has characters other than [A-Za-z0-9.-]");
    out.precision = std::string(precision);
    if (!parsePositive(repeat, out.repeat)) return fail("repeat is not a number");
    return out;
}

} // namespace sv
