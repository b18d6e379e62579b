// Fuzzes the scaleview.json reader: the input is a sidecar's text beside one log, read as a scan
// reads it (the nearest sidecar, its "files" entries and globs) and turned into the log's key.
// Nothing may crash or throw; every problem is a warning naming the file.

#include "core/load/runidentity.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

const std::filesystem::path& folder() {
    static const std::filesystem::path dir = [] {
        std::string tmpl =
            (std::filesystem::temp_directory_path() / "fuzz-sidecar-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) std::abort();
        std::filesystem::create_directories(std::filesystem::path(tmpl) / "1n8g");
        return std::filesystem::path(tmpl);
    }();
    return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path root = folder();
    {
        std::ofstream out(root / "scaleview.json", std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    const std::filesystem::path log = root / "1n8g" / "result_3.txt";
    std::vector<sv::Warning> warnings;
    sv::Sidecars sidecars(root);
    const auto entry = sidecars.lookup(log, warnings);
    for (const sv::Warning& w : warnings)
        if (w.file.empty() || w.message.empty()) std::abort();
    const sv::RunKey key = sv::identifyRun(sv::RunFacts{}, sv::readPathHints(log, root), entry,
                                           "1n8g/result_3.txt", warnings);
    if (key.topology.nodes < 0 || key.topology.gpusPerNode < 0) std::abort();
    return 0;
}
