#include "core/reference/cataloguefile.h"

#include "core/model/boundedread.h"

namespace sv {

std::optional<std::string> readCatalogueFile(const std::filesystem::path& file,
                                             std::string* error) {
    std::string why;
    auto text = readBoundedText(file, kMaxCatalogueBytes, "a catalogue", &why);
    if (!text && error)
        *error =
            file.string() + (why.rfind("larger than", 0) == 0 || why.rfind("not a regular", 0) == 0
                                 ? ": " + why
                                 : ": cannot be read: " + why);
    return text;
}

} // namespace sv
