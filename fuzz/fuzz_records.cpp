// Fuzzes a campaign's own records as a campaign opened from another machine brings them: the
// first byte picks the file, the rest is its text. probes.json (parsed, then matched to a case),
// campaign.json (the launcher's reader, and core's window lookup from a leaf of the campaign's
// logs) and journal.jsonl (run and case records). Nothing may crash or throw; a file that cannot
// be read says so, naming it.

#include "core/load/campaignwindow.h"
#include "core/stats/scalingloss.h"
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/journal.h"

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
            (std::filesystem::temp_directory_path() / "fuzz-records-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) std::abort();
        std::filesystem::create_directories(std::filesystem::path(tmpl) / "logs" / "bz8" / "1n2g");
        return std::filesystem::path(tmpl);
    }();
    return dir;
}

void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void probes(const std::string& text) {
    const sv::ProbeFile file = sv::parseProbeFile(text, "probes.json");
    if (!file.error.empty() && file.error.find("probes.json") == std::string::npos) std::abort();
    for (const sv::ProbeRecord& r : file.records)
        (void)sv::probesFor(file, r.topology, r.model, r.precision, r.batchPerDevice.value_or(8));
    (void)sv::probesFor(file, "1n2g", "resnet50", "fp32", 8);
}

void campaign(const std::string& text) {
    const std::filesystem::path root = folder();
    write(root / "campaign.json", text);
    std::string error;
    const auto c = sv::launcher::loadCampaign((root / "campaign.json").string(), &error);
    if (!c && error.empty()) std::abort();
    const auto found = sv::findCampaignWindow(root / "logs" / "bz8" / "1n2g");
    if (found.error && found.error->find("campaign.json") == std::string::npos) std::abort();
    (void)sv::seriesWindow(found);
}

void journal(const std::string& text) {
    const std::filesystem::path path = folder() / "journal.jsonl";
    write(path, text);
    const sv::launcher::Journal j(path.string());
    std::vector<std::string> warnings;
    const auto runs = j.read(&warnings);
    for (const std::string& w : warnings)
        if (w.find("journal.jsonl") == std::string::npos) std::abort();
    (void)sv::launcher::disturbedOkRuns(runs);
    (void)j.readCaseStops();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 3) {
    case 0: probes(text); break;
    case 1: campaign(text); break;
    default: journal(text); break;
    }
    return 0;
}
