#pragma once
// Strict patterns for the names that reach a command line as words of their own (host, user,
// container, tag): checked before anything starts, so "n1;touch x", "-oProxyCommand=..." or
// "$(id)" never become an option or a command.

#include <string_view>

namespace sv::launcher {

// A DNS name, an SSH alias or an IPv4/IPv6 address: letters, digits, '.', '-', '_', ':';
// must start with a letter or digit (never '-'), at most 253 bytes.
bool isValidHostName(std::string_view name);
// POSIX portable user name: [A-Za-z0-9_][A-Za-z0-9_.-]*, at most 32 bytes.
bool isValidUserName(std::string_view name);
// Docker's container name rule: [a-zA-Z0-9][a-zA-Z0-9_.-]*, at most 128 bytes.
bool isValidContainerName(std::string_view name);
// A path given to other programs as an option value that they split on spaces (mpirun's
// plm_rsh_agent): absolute, printable, no whitespace or quotes.
bool isValidPlainPath(std::string_view path);

} // namespace sv::launcher
