#pragma once
// The one place where an argument vector becomes a POSIX shell command string. Every shell hop
// (the remote login shell behind ssh) gets exactly one pass through here; nothing else builds
// shell text, so an argument reaches the program byte-identical whatever it holds.

#include <string>
#include <string_view>
#include <vector>

namespace sv::launcher {

// 'abc' with each ' written as '\'' ; safe words (letters, digits, -_./:=,+@%) stay bare.
std::string shellQuote(std::string_view arg);
// The words quoted one by one and joined with single spaces.
std::string shellCommand(const std::vector<std::string>& argv);

} // namespace sv::launcher
