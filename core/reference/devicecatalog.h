#pragma once
// What the hardware can do and what a sample costs: each device's dense peak by number format
// and each model's training FLOPs per sample (resources/peak-catalogue.json, compiled in, plus a
// user's own file of the same shape), with the source of every figure. Percent of peak divides
// by these (core/stats/peakshare.h).

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

struct PeakFigure {
    double tflops = 0.0; // dense, 1e12 FLOP/s, a multiply-add counted as 2
    std::string source;  // a key of the catalogue's sources
    std::string note;
};

struct DeviceEntry {
    std::string id;                 // "v100-sxm2-16gb"
    std::string architecture;       // "Volta", "Ampere", "Hopper"; other: a user's
    std::vector<std::string> names; // as nvidia-smi prints them
    // By number format: fp32, tf32_tensor, fp16_tensor, bf16_tensor.
    std::map<std::string, PeakFigure> peaks;
    std::string origin; // the user's file it came from; empty for the built-in entries
};

struct ModelFlops {
    std::string id; // a model name as the run keys have it ("r50", "bert")
    std::vector<std::string> aliases;
    double flopsPerSample = 0.0;
    std::string per;         // "image", "sequence", "face"
    double parameters = 0.0; // those whose gradient is all-reduced (0: not known)
    std::string source, derivation;
    std::string origin;
};

struct CatalogueSource {
    std::string title, url, where;
};

class DeviceCatalog {
  public:
    static const DeviceCatalog& builtin();
    // The catalogue's JSON; nullopt and *error naming the entry, the field and the reason
    // ("devices[3] (my-gpu): peaks.fp32.tflops: not a positive number") on malformed input.
    static std::optional<DeviceCatalog> fromJson(std::string_view json, const std::string& origin,
                                                 std::string* error);
    // A user's file, whole or not at all: its entries come before the built-in ones (a user's
    // entry for a device or a model replaces ours) and carry the file as their origin.
    bool addFile(const std::filesystem::path& file, std::string* error);

    // The device nvidia-smi calls name (or the catalogue's id): compared whole, case and
    // surrounding blanks ignored, with and without a leading "NVIDIA " (older drivers leave it
    // out). Never a part of a name: "H100" is no "NVIDIA H100 NVL".
    const DeviceEntry* findDevice(std::string_view name) const;
    // The device a free text names, such as a published table's hardware ("4 nodes x 8 Tesla
    // V100-SXM2-16GB, ..."): the one whose nvidia-smi name it holds as whole words.
    const DeviceEntry* deviceInText(std::string_view text) const;
    const ModelFlops* findModel(std::string_view model) const;
    const CatalogueSource* source(std::string_view id) const;

    const std::vector<DeviceEntry>& devices() const { return m_devices; }
    const std::vector<ModelFlops>& models() const { return m_models; }

  private:
    std::vector<DeviceEntry> m_devices;
    std::vector<ModelFlops> m_models;
    std::map<std::string, CatalogueSource, std::less<>> m_sources;
};

} // namespace sv
