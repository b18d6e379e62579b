#include "core/parse/hostfacts.h"

#include "core/model/textscan.h"
#include "core/parse/lineformat.h"

#include <cctype>
#include <charconv>
#include <cstring>
#include <vector>

namespace sv {
namespace {

// A host name: letters, digits, '-', '.', '_', starting with a letter and holding a digit
// ("node01", "gpu-a100-3", "dgx2.cluster"), so that a bare word ("done") is not taken for one.
bool hostLike(std::string_view s) {
    if (s.empty() || s.size() > 64 || !std::isalpha(static_cast<unsigned char>(s.front())))
        return false;
    bool digit = false;
    for (char c : s) {
        if (c >= '0' && c <= '9')
            digit = true;
        else if (!std::isalpha(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_')
            return false;
    }
    return digit;
}

std::optional<int> countAfter(std::string_view text, std::string_view key) {
    const auto at = text.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    int v = 0;
    const char* first = text.data() + at + key.size();
    if (std::from_chars(first, text.data() + text.size(), v).ec != std::errc() || v < 1 ||
        v > (1 << 20))
        return std::nullopt;
    return v;
}

std::string someOf(const std::set<std::string>& names) {
    return *names.begin() + (names.size() > 1 ? ", ..." : "");
}

} // namespace

void HostFacts::host(int rank, std::string_view name, std::int64_t n) {
    if (!m_firstHostLine) m_firstHostLine = n;
    if (rank >= 0) m_rankHost.emplace(rank, std::string(name));
}

void HostFacts::nccl(int rank, std::string_view text, std::int64_t n) {
    const auto info = text.find(" NCCL INFO");
    const auto colon = text.find(':');
    if (info == std::string_view::npos || colon == std::string_view::npos || colon > info) return;
    const std::string_view name = text.substr(0, colon);
    const auto open = text.rfind('[', info);
    int local = -1;
    if (open == std::string_view::npos || !hostLike(name) ||
        std::from_chars(text.data() + open + 1, text.data() + info, local).ec != std::errc())
        return;
    host(rank, name, n);
    m_ncclHosts.emplace(name);
    m_slots.emplace(std::string(name), local);
}

// horovodrun -H host1:4,host2:4 / mpirun -H host1,host2: one entry per host.
void HostFacts::hostList(std::string_view text, std::int64_t n) {
    if (m_hostList || !(contains(text, "horovodrun") || contains(text, "mpirun"))) return;
    for (std::string_view key : {" -H ", " --hosts ", " --host "}) {
        const auto at = text.find(key);
        if (at == std::string_view::npos) continue;
        const auto start = at + key.size();
        const auto stop = text.find(' ', start);
        const std::string_view list =
            text.substr(start, stop == std::string_view::npos ? text.size() - start : stop - start);
        std::set<std::string> names;
        int empty = 0; // "a,,b" or ":8": no host named, not counted, and said in the evidence
        for (std::size_t i = 0; i <= list.size();) {
            auto comma = list.find(',', i);
            if (comma == std::string_view::npos) comma = list.size();
            const std::string_view entry = list.substr(i, comma - i);
            const std::string_view name = entry.substr(0, entry.find(':'));
            if (!name.empty())
                names.emplace(name);
            else if (!list.empty())
                ++empty;
            i = comma + 1;
        }
        if (!names.empty())
            m_hostList =
                RunFact{std::to_string(names.size()), n,
                        std::string(trimBlanks(key)) + " " + std::string(list.substr(0, 60)) +
                            (empty ? " (" + std::to_string(empty) + " empty host entr" +
                                         (empty == 1 ? "y" : "ies") + " not counted)"
                                   : std::string())};
        return;
    }
}

void HostFacts::line(std::string_view text, std::int64_t n) {
    int rank = -1;
    std::size_t length = 0;
    if (mayHaveTag(text))
        for (const TagFormat& tag : tagFormats())
            if (tag.match(text, rank, length)) {
                text.remove_prefix(length);
                break;
            }
    const std::string_view bare = trimBlanks(text);
    if (rank >= 0 && hostLike(bare)) host(rank, bare, n); // srun -l hostname, and the like
    if (contains(text, " NCCL INFO")) nccl(rank, bare, n);
    for (std::string_view key : {"SLURM_NNODES=", "SLURM_JOB_NUM_NODES="})
        if (auto v = countAfter(text, key); v && !m_slurm)
            m_slurm = RunFact{std::to_string(*v), n, std::string(key) + std::to_string(*v)};
    hostList(text, n);
}

std::optional<RunFact> HostFacts::nodes(int gpus) const {
    if (m_slurm) return m_slurm;
    if (m_hostList) return m_hostList;
    if (gpus <= 0) return std::nullopt;
    if (static_cast<int>(m_rankHost.size()) == gpus && m_rankHost.rbegin()->first == gpus - 1) {
        std::set<std::string> names;
        for (const auto& [rank, name] : m_rankHost)
            names.insert(name);
        return RunFact{std::to_string(names.size()), m_firstHostLine,
                       "the hosts of its " + std::to_string(gpus) + " ranks (" + someOf(names) +
                           ")"};
    }
    if (static_cast<int>(m_slots.size()) == gpus)
        return RunFact{std::to_string(m_ncclHosts.size()), m_firstHostLine,
                       "NCCL INFO lines of " + std::to_string(gpus) + " GPUs on " +
                           std::to_string(m_ncclHosts.size()) + " hosts (" + someOf(m_ncclHosts) +
                           ")"};
    return std::nullopt;
}

} // namespace sv
