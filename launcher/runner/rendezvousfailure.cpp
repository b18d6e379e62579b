#include "launcher/runner/rendezvousfailure.h"

#include <array>

namespace sv::launcher {
namespace {

constexpr const char* kAdvice =
    "; give each host the address its ranks can reach as NAME=ADDRESS (--hosts, or the host's "
    "address in the campaign), or make the name resolve on every host (DNS or /etc/hosts), "
    "then run preflight";

std::string_view lineAround(std::string_view chunk, std::size_t at) {
    const auto from = chunk.rfind('\n', at);
    const auto begin = from == std::string_view::npos ? 0 : from + 1;
    auto end = chunk.find('\n', at);
    if (end == std::string_view::npos) end = chunk.size();
    return chunk.substr(begin, end - begin);
}

// "(ADDR, PORT)" after `marker` in line: ADDR; empty when the shape differs.
std::string addressAfter(std::string_view line, std::string_view marker) {
    const auto at = line.find(marker);
    if (at == std::string_view::npos) return {};
    const auto open = at + marker.size();
    const auto comma = line.find(',', open);
    if (comma == std::string_view::npos) return {};
    return std::string(line.substr(open, comma - open));
}

// "[ADDR]:PORT" after `marker`: ADDR.
std::string bracketedAfter(std::string_view line, std::string_view marker) {
    const auto at = line.find(marker);
    if (at == std::string_view::npos) return {};
    const auto open = line.find('[', at + marker.size());
    const auto close = open == std::string_view::npos ? open : line.find(']', open);
    if (close == std::string_view::npos) return {};
    return std::string(line.substr(open + 1, close - open - 1));
}

std::string trimmed(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.remove_suffix(1);
    return std::string(line);
}

} // namespace

std::optional<std::string> rendezvousFailure(std::string_view chunk) {
    // c10d (PyTorch's store client, gloo underneath): the name does not resolve on that host.
    // It says so once a second per rank until the start timeout; the first says enough.
    constexpr std::string_view kUnresolved = "network addresses of (";
    if (const auto at = chunk.find(kUnresolved); at != std::string_view::npos) {
        const auto line = lineAround(chunk, at);
        // Only "no such name" (EAI_NONAME, EAI_FAIL): an address of the other family missing
        // (-9, an IPv6 literal looked up as IPv4) or a resolver hiccup (-3) is not the end.
        const bool noSuchName = line.find("gai error: -2 ") != std::string_view::npos ||
                                line.find("gai error: -4 ") != std::string_view::npos;
        if (line.find("cannot be retrieved") != std::string_view::npos && noSuchName)
            return "a rank cannot resolve the rendezvous address '" +
                   addressAfter(line, kUnresolved) + "' (" + trimmed(line) + ")" + kAdvice;
    }
    // c10d: the address resolves, but nothing answers there and nothing routes to it. A refused
    // connection is not on the list: rank 0's store may simply not listen yet.
    static const std::array<std::string_view, 3> kUnreachable{
        "No route to host", "Network is unreachable", "Connection timed out"};
    for (std::string_view reason : kUnreachable) {
        const auto at = chunk.find(reason);
        if (at == std::string_view::npos) continue;
        const auto line = lineAround(chunk, at);
        const std::string address = bracketedAfter(line, "failed to connect to");
        if (address.empty()) continue;
        return "a rank cannot reach the rendezvous address '" + address + "' (" + trimmed(line) +
               ")" + kAdvice;
    }
    return std::nullopt;
}

} // namespace sv::launcher
