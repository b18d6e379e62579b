#include "core/stats/peakshare.h"

#include "core/model/numerics.h"
#include "core/model/runkey.h"

namespace sv {

namespace {

std::string sourceText(const DeviceCatalog& catalog, const std::string& id,
                       const std::string& origin) {
    if (!origin.empty()) return "user catalogue " + origin;
    const CatalogueSource* s = catalog.source(id);
    return s ? s->title : id;
}

} // namespace

std::string peakFormat(std::string_view precision, const DeviceEntry& device, std::string* note) {
    const auto has = [&](const char* f) { return device.peaks.count(f) > 0; };
    if (precision == "fp16" || precision == "fp16-noamp" || precision == "amp")
        return has("fp16_tensor") ? "fp16_tensor" : "";
    if (precision == "bf16") return has("bf16_tensor") ? "bf16_tensor" : "";
    if (precision == "tf32") return has("tf32_tensor") ? "tf32_tensor" : "";
    if (precision == "fp32") {
        if (device.architecture != "Volta" && has("tf32_tensor")) {
            if (note)
                *note = "FP32 on " + device.architecture +
                        " set against the TF32 tensor peak: the frameworks run FP32 "
                        "convolutions as TF32 by default";
            return "tf32_tensor";
        }
        return has("fp32") ? "fp32" : "";
    }
    return {};
}

PeakShare peakShare(std::string_view model, std::string_view precision, int devices,
                    std::optional<double> throughput, const PeakOptions& o) {
    const DeviceCatalog& catalog = o.catalog ? *o.catalog : DeviceCatalog::builtin();
    PeakShare p;
    p.deviceSource = o.deviceSource;
    const ModelFlops* flops = catalog.findModel(model);
    if (!flops) {
        p.unknown =
            "peak unknown: no FLOPs count for model '" + std::string(model) + "' in the catalogue";
        return p;
    }
    p.flopsPerSample = flops->flopsPerSample;
    const std::string flopsSource =
        "FLOPs: " + (flops->origin.empty() ? flops->derivation : "user catalogue " + flops->origin);
    if (o.statedPeakTflops) {
        p.device = o.cpu ? "CPU" : o.device;
        p.peakTflops = *o.statedPeakTflops;
        p.precision = std::string(precision);
        p.source = "peak stated by the user; " + flopsSource;
    } else if (o.cpu) {
        p.unknown = "peak unknown: CPU ranks; state the machine's peak per rank (--peak-tflops)";
        return p;
    } else if (o.device.empty()) {
        p.unknown = "peak unknown: " + (o.deviceUnknown.empty()
                                            ? std::string("the device is not known (set "
                                                          "\"device\" in scaleview.json or "
                                                          "--device)")
                                            : o.deviceUnknown);
        return p;
    } else {
        const DeviceEntry* d = catalog.findDevice(o.device);
        if (!d) {
            p.unknown = "peak unknown: device '" + o.device + "' is not in the catalogue";
            return p;
        }
        p.device = d->id;
        p.precision = peakFormat(precision, *d, &p.note);
        if (p.precision.empty()) {
            p.unknown = "peak unknown: no " + std::string(precision) + " peak for " + d->id;
            return p;
        }
        const PeakFigure& f = d->peaks.at(p.precision);
        p.peakTflops = f.tflops;
        p.source = "peak: " + sourceText(catalog, f.source, d->origin) + "; " + flopsSource;
    }
    if (devices <= 0) {
        p.unknown = "peak unknown: the number of devices is not known";
        return p;
    }
    if (!throughput) {
        p.unknown = "no figure: the case has no median";
        return p;
    }
    p.pct = 100.0 * *throughput * p.flopsPerSample / (devices * p.peakTflops * 1e12);
    if (*p.pct > 100.0)
        p.note += std::string(p.note.empty() ? "" : "; ") +
                  "above the peak: the kernels did fewer FLOPs than counted (Winograd or FFT "
                  "convolutions), not a faster chip";
    return p;
}

PeakShare referencePeakShare(const ReferenceTable& table, const ReferenceSeries& series,
                             std::string_view topology, const DeviceCatalog& catalog) {
    PeakOptions o;
    o.catalog = &catalog;
    if (const DeviceEntry* d = catalog.deviceInText(table.hardware)) {
        o.device = d->id;
        o.deviceSource = "the table's hardware";
    } else {
        o.deviceUnknown =
            "the table's hardware ('" + table.hardware + "') names no device of the catalogue";
    }
    const auto t = parseTopology(topology);
    const auto it = series.throughput.find(std::string(topology));
    const std::string precision = series.precision.value_or(table.precision.value_or(""));
    return peakShare(
        table.model, precision, t ? t->ranks() : 0,
        it == series.throughput.end() ? std::nullopt : std::optional<double>(it->second), o);
}

std::string peakCell(const PeakShare& p) {
    return p.pct ? formatFixed(*p.pct, 1) + " %" : "peak unknown";
}

std::string peakBasis(const PeakShare& p) {
    if (!p.pct) return p.unknown;
    std::string out = p.device + " " + p.precision + " " + formatShown(p.peakTflops, 1) +
                      " TFLOP/s" +
                      (p.deviceSource.empty() ? "" : " (device: " + p.deviceSource + ")") + ", " +
                      formatFixed(p.flopsPerSample / 1e9, 4) + " GFLOP per sample; " + p.source;
    if (!p.note.empty()) out += "; " + p.note;
    return out;
}

} // namespace sv
