#include "core/parse/devicefacts.h"

#include "core/model/textscan.h"

#include <array>
#include <cctype>
#include <charconv>
#include <utility>

namespace sv {
namespace {

std::string lowerAlnum(std::string_view s) {
    std::string out;
    for (char c : s)
        if (std::isalnum(static_cast<unsigned char>(c)))
            out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return out;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A count at the start of s ("130" of "130xDGX-1"); *end is where it stops.
std::optional<int> leadingCount(std::string_view s, std::size_t* end) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || v < 1 || v > (1 << 20)) return std::nullopt;
    *end = static_cast<std::size_t>(p - s.data());
    return v;
}

std::string_view unquoted(std::string_view s) {
    s = trimBlanks(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return s;
}

} // namespace

std::optional<int> gpusOfSystem(std::string_view name) {
    std::string l = lower(name);
    if (const auto at = l.find("nvidia"); at != std::string::npos) l.erase(at, 6);
    const std::string key = lowerAlnum(l);
    // Longest names first: "dgx2h" before "dgx2". DGX Stations (4 GPUs) are not MLPerf systems.
    static constexpr std::array<std::pair<std::string_view, int>, 7> kSystems{{{"dgxa100", 8},
                                                                               {"dgxh100", 8},
                                                                               {"dgxh200", 8},
                                                                               {"dgxb200", 8},
                                                                               {"dgx2h", 16},
                                                                               {"dgx2", 16},
                                                                               {"dgx1", 8}}};
    for (const auto& [system, gpus] : kSystems)
        if (key.rfind(system, 0) == 0) return gpus;
    return std::nullopt;
}

void DeviceFacts::notGpus(std::string what, std::int64_t n, std::string_view evidence) {
    if (!m_notCounted)
        m_notCounted = RunFact{std::move(what), n, std::string(evidence.substr(0, 80))};
}

// "64xNVIDIA DGX H100": 64 systems of 8 GPUs; "gaudi-8", "Intel Xeon ...": devices, no GPUs;
// "A100" alone: a GPU's name, no count.
void DeviceFacts::platform(std::string_view value, std::int64_t n) {
    const std::string_view name = unquoted(value);
    const std::string l = lower(name);
    const std::string evidence = "submission_platform \"" + std::string(name.substr(0, 60)) + "\"";
    if (contains(l, "gaudi") || contains(l, "hls-"))
        return notGpus("its devices are Gaudi accelerators (HPUs), not GPUs", n, evidence);
    // A host's CPU beside its GPUs ("8xA100 with EPYC 7763") is no CPU-only run.
    const bool namesGpu = contains(l, "gpu") || contains(l, "nvidia") || contains(l, "dgx") ||
                          contains(l, "100") || contains(l, "200") || contains(l, "instinct");
    if (!namesGpu && (contains(l, "xeon") || contains(l, "sapphire rapids") ||
                      contains(l, "epyc") || contains(l, "cpu")))
        return notGpus("it ran on CPUs, no GPUs", n, evidence);
    if (contains(l, "tpu")) return notGpus("its devices are TPU cores, not GPUs", n, evidence);
    std::size_t end = 0;
    const auto count = leadingCount(name, &end);
    if (!count || end >= name.size() || (name[end] != 'x' && name[end] != 'X')) return;
    if (const auto per = gpusOfSystem(name.substr(end + 1))) {
        if (!m_systems)
            m_systems = RunFact{std::to_string(*count * *per), n,
                                evidence + ": " + std::to_string(*count) + " x " +
                                    std::to_string(*per) + " GPUs"};
    } else {
        notGpus("it names " + std::to_string(*count) + (*count == 1 ? " system" : " systems") +
                    " of a kind whose GPU count ScaleView does not know",
                n, evidence);
    }
}

void DeviceFacts::record(std::string_view key, std::string_view value, std::int64_t n) {
    if (key == "accelerators_per_node") {
        std::size_t end = 0;
        if (const auto per = leadingCount(trimBlanks(value), &end); per && !m_perNode)
            m_perNode =
                RunFact{std::to_string(*per), n, "accelerators_per_node " + std::to_string(*per)};
    } else if (key == "submission_platform") {
        platform(value, n);
    }
}

void DeviceFacts::line(std::string_view text, std::int64_t n) {
    // maskrcnn-benchmark's "Using 8 GPUs" (not "Using 1 GPU per process").
    if (const auto at = text.find("Using "); at != std::string_view::npos && !m_using) {
        std::size_t end = 0;
        const std::string_view rest = text.substr(at + 6);
        if (const auto g = leadingCount(rest, &end)) {
            const std::string_view after = rest.substr(end);
            if ((after.rfind(" GPUs", 0) == 0 || after.rfind(" GPU(s)", 0) == 0) &&
                !contains(after.substr(0, 16), " per "))
                m_using =
                    RunFact{std::to_string(*g), n,
                            std::string(text.substr(at, 6 + end + (after[4] == '(' ? 7 : 5)))};
        }
    }
    if (m_notCounted) return;
    if (const auto at = text.find("Num TPU Cores: "); at != std::string_view::npos)
        return notGpus("its devices are TPU cores, not GPUs", n, text.substr(at));
    if (contains(text, "neuronx") || contains(text, "neuroncc"))
        notGpus("its devices are AWS Neuron cores (Trainium/Inferentia), not GPUs", n,
                text.substr(text.find("neuron"), 40));
}

std::optional<RunFact> DeviceFacts::gpus(const std::optional<RunFact>& nodes) const {
    if (m_using) return m_using;
    if (m_perNode && nodes) {
        const int total = std::stoi(m_perNode->value) * std::stoi(nodes->value);
        return RunFact{std::to_string(total), m_perNode->line,
                       m_perNode->evidence + " x " + nodes->evidence};
    }
    return m_systems;
}

} // namespace sv
