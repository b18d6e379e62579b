#include "app/cli/usercatalog.h"

#include "core/report/referencetablewriter.h"

#include <cstdio>
#include <cstdlib>

namespace sv::cli {

std::filesystem::path userReferenceDir() {
    return userReferenceDirectory(std::getenv("XDG_DATA_HOME"), std::getenv("HOME"));
}

std::optional<ReferenceCatalog> loadCatalog(const std::vector<std::string>& files, bool quiet,
                                            std::string* error) {
    std::vector<std::string> refused;
    ReferenceCatalog catalog = ReferenceCatalog::withUserTables(userReferenceDir(), &refused);
    if (!quiet)
        for (const auto& r : refused)
            std::fprintf(stderr, "warning: reference table left out: %s\n", r.c_str());
    for (const auto& f : files)
        if (!catalog.addFile(f, error)) return std::nullopt;
    return catalog;
}

std::vector<std::string> takeRepeated(std::vector<std::string>& argv, const std::string& name,
                                      std::string* error) {
    std::vector<std::string> rest, values;
    const std::string flag = "--" + name, prefix = flag + "=";
    for (std::size_t i = 0; i < argv.size(); ++i) {
        if (argv[i] == "--") { // positionals from here on
            rest.insert(rest.end(), argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
            break;
        }
        if (argv[i] == flag) {
            if (i + 1 >= argv.size()) {
                if (error && error->empty()) *error = flag + " needs a value";
                break;
            }
            values.push_back(argv[++i]);
        } else if (argv[i].rfind(prefix, 0) == 0) {
            values.push_back(argv[i].substr(prefix.size()));
        } else {
            rest.push_back(argv[i]);
        }
    }
    argv = std::move(rest);
    return values;
}

} // namespace sv::cli
