#include "app/cli/userformats.h"

#include "app/cli/usercatalog.h"
#include "core/formats/userformat.h"

#include <algorithm>
#include <cstdio>

namespace sv::cli {

bool prepareUserFormats(std::vector<std::string>& args, std::string* error) {
    std::string missing;
    const std::vector<std::string> files = takeRepeated(args, "format-file", &missing);
    if (!missing.empty()) {
        *error = missing;
        return false;
    }
    const bool quiet = std::find(args.begin(), args.end(), "--quiet") != args.end();
    // The files given first: their ids win over the config directory's.
    for (const auto& file : files) {
        UserFormatError e;
        auto format = UserFormat::load(file, &e);
        if (!format) {
            *error = e.text();
            return false;
        }
        std::string why;
        if (!registerUserFormat(format, &why)) {
            *error = file + ": \"id\": " + why;
            return false;
        }
    }
    std::vector<UserFormatError> refused;
    for (auto& format : readUserFormats(userFormatDirectory(), &refused)) {
        if (registeredUserFormat(format->id())) continue; // a --format-file of that id
        std::string why;
        if (!registerUserFormat(format, &why)) refused.push_back({format->file(), "id", why});
    }
    if (!quiet)
        for (const auto& e : refused)
            std::fprintf(stderr, "warning: user format left out: %s\n", e.text().c_str());
    return true;
}

} // namespace sv::cli
