#pragma once
// Where a history lives: a SQLite file (a path), or a shared PostgreSQL database named by a
// libpq connection URI (postgresql://[user@][host][:port][,...][/dbname][?keyword=value&...],
// postgres:// too). Anything else that looks like a URI ("scheme://...", "scheme:" alone) is
// refused, so that a mistyped URI never becomes a folder named after its scheme. A URI never
// carries a password: libpq reads ~/.pgpass, PGPASSFILE and PGSERVICEFILE itself.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace sv::history {

struct HistoryLocation {
    enum class Kind { Invalid, SQLite, PostgreSQL };
    Kind kind = Kind::Invalid;
    std::filesystem::path file; // SQLite
    // PostgreSQL: libpq keywords and their values, decoded (host, port, dbname, user,
    // sslmode, ... in the URI's order).
    std::vector<std::pair<std::string, std::string>> parameters;
    std::string text;  // as given: what messages name
    std::string error; // Invalid: why, in words

    bool isPostgres() const { return kind == Kind::PostgreSQL; }
    // The parameter's value, or "" when the URI does not set it.
    std::string parameter(const std::string& keyword) const;
    // The parameters as one libpq conninfo string (keyword='value' ..., quoted as libpq wants).
    std::string conninfo() const;
};

// Reads text: a postgresql:// or postgres:// URI, else a file path. A path's folder is not
// created here; a path that names a folder is refused.
HistoryLocation parseHistoryLocation(const std::string& text);

} // namespace sv::history
