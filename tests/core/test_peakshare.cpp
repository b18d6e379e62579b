// Percent of peak: DLPerf's NGC MXNet tables against the V100 SXM2 datasheet and ResNet-50's
// count, a device nobody catalogued, the CPU workload, and a user's own catalogue entry.

#include "core/reference/devicecatalog.h"
#include "core/reference/referencecatalog.h"
#include "core/stats/peakshare.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace sv;

namespace {

PeakOptions v100() {
    PeakOptions o;
    o.device = "Tesla V100-SXM2-16GB";
    o.deviceSource = "test";
    return o;
}

double tablePct(const char* id, const char* topology) {
    const ReferenceTable* t = ReferenceCatalog::builtin().find(id);
    EXPECT_NE(t, nullptr) << id;
    if (!t) return -1.0;
    const PeakShare p = referencePeakShare(*t, *t->primary(), topology, DeviceCatalog::builtin());
    EXPECT_TRUE(p.pct) << id << " " << topology << ": " << p.unknown;
    EXPECT_EQ(p.device, "v100-sxm2-16gb");
    return p.pct.value_or(-1.0);
}

} // namespace

// 392.24 img/s x 24.5351 GFLOP / (1 x 15.7 TFLOP/s) = 61.297 %; 11331.93 on 32 GPUs 55.340 %;
// AMP 1281.83 / 125 TFLOP/s 25.160 %, 27558.28 on 32 16.904 % (docs/percent-of-peak.md).
TEST(PeakShare, DlperfNgcMxnetTablesOnTheV100Datasheet) {
    EXPECT_NEAR(tablePct("dlperf-ngc-mxnet-fp32-bs128", "1n1g"), 61.2971, 0.0005);
    EXPECT_NEAR(tablePct("dlperf-ngc-mxnet-fp32-bs128", "4n8g"), 55.3404, 0.0005);
    EXPECT_NEAR(tablePct("dlperf-ngc-mxnet-fp16-amp-bs256", "1n1g"), 25.1599, 0.0005);
    EXPECT_NEAR(tablePct("dlperf-ngc-mxnet-fp16-amp-bs256", "4n8g"), 16.9036, 0.0005);
}

TEST(PeakShare, AMeasuredCaseNamesItsPeakAndSources) {
    const PeakShare p = peakShare("r50", "fp32", 1, 392.24, v100());
    ASSERT_TRUE(p.pct);
    EXPECT_NEAR(*p.pct, 61.2971, 0.0005);
    EXPECT_DOUBLE_EQ(p.peakTflops, 15.7);
    EXPECT_EQ(p.precision, "fp32");
    EXPECT_DOUBLE_EQ(p.flopsPerSample, 24.5351e9);
    EXPECT_NE(p.source.find("V100"), std::string::npos) << p.source;
    EXPECT_EQ(peakCell(p), "61.3 %");
    // AMP is set against the tensor-core peak, not FP32's.
    const PeakShare amp = peakShare("resnet50", "fp16", 32, 27558.28, v100());
    ASSERT_TRUE(amp.pct);
    EXPECT_DOUBLE_EQ(amp.peakTflops, 125.0);
    EXPECT_EQ(amp.precision, "fp16_tensor");
}

TEST(PeakShare, UnknownDeviceGivesNoFigure) {
    PeakOptions o;
    o.device = "NVIDIA H100"; // a part of "NVIDIA H100 NVL" and of no catalogued name
    const PeakShare p = peakShare("r50", "fp32", 8, 3000.0, o);
    EXPECT_FALSE(p.pct);
    EXPECT_EQ(peakCell(p), "peak unknown");
    EXPECT_NE(p.unknown.find("'NVIDIA H100' is not in the catalogue"), std::string::npos)
        << p.unknown;
    const PeakShare none = peakShare("r50", "fp32", 8, 3000.0, PeakOptions{});
    EXPECT_FALSE(none.pct);
    EXPECT_NE(none.unknown.find("device is not known"), std::string::npos) << none.unknown;
    const PeakShare model = peakShare("vgg16", "fp32", 8, 3000.0, v100());
    EXPECT_FALSE(model.pct);
    EXPECT_NE(model.unknown.find("no FLOPs count for model 'vgg16'"), std::string::npos);
}

TEST(PeakShare, CpuWorkloadOnlyWithAStatedPeak) {
    PeakOptions o;
    o.cpu = true;
    const PeakShare p = peakShare("r50", "fp32", 2, 10.0, o);
    EXPECT_FALSE(p.pct);
    EXPECT_NE(p.unknown.find("CPU"), std::string::npos);
    o.statedPeakTflops = 1.0;
    const PeakShare stated = peakShare("r50", "fp32", 2, 10.0, o);
    ASSERT_TRUE(stated.pct);
    EXPECT_NEAR(*stated.pct, 100.0 * 10.0 * 24.5351e9 / (2 * 1e12), 1e-9);
    EXPECT_NE(stated.source.find("stated by the user"), std::string::npos);
}

TEST(PeakShare, NamesMatchWholeWithOrWithoutTheNvidiaPrefix) {
    const DeviceCatalog& c = DeviceCatalog::builtin();
    ASSERT_NE(c.findDevice("A100-SXM4-40GB"), nullptr);
    EXPECT_EQ(c.findDevice(" nvidia a100-sxm4-40gb ")->id, "a100-sxm4-40gb");
    EXPECT_EQ(c.findDevice("NVIDIA H100 NVL")->id, "h100-nvl");
    EXPECT_EQ(c.findDevice("H100"), nullptr);
    EXPECT_EQ(c.deviceInText("DGX-1, 8x V100 16GB"), nullptr);
    // Ampere's FP32 is TF32 on the tensor cores, and says so.
    PeakOptions o;
    o.device = "NVIDIA A100-SXM4-80GB";
    const PeakShare p = peakShare("r50", "fp32", 1, 1000.0, o);
    EXPECT_EQ(p.precision, "tf32_tensor");
    EXPECT_NE(p.note.find("TF32"), std::string::npos);
}

TEST(PeakShare, AboveThePeakIsShownWithANoteNotClipped) {
    PeakOptions o = v100();
    const PeakShare p = peakShare("r100", "fp32", 1, 250.0, o); // 250 x 72.5 GFLOP = 18.1 TFLOP/s
    ASSERT_TRUE(p.pct);
    EXPECT_GT(*p.pct, 100.0);
    EXPECT_NE(p.note.find("Winograd"), std::string::npos);
}

TEST(PeakShare, UsersCatalogueEntryIsUsedAndNamed) {
    const auto file = std::filesystem::temp_directory_path() /
                      ("peak-user-" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream out(file);
        out << R"({"sources": {"acme": {"title": "Acme X1 datasheet"}},
                   "devices": [{"id": "acme-x1", "architecture": "Volta", "names": ["Acme X1"],
                                "peaks": {"fp32": {"tflops": 20, "source": "acme"}}},
                               {"id": "mine-v100", "architecture": "Volta",
                                "names": ["Tesla V100-SXM2-16GB"],
                                "peaks": {"fp32": {"tflops": 14, "source": "acme"}}}]})";
    }
    DeviceCatalog c = DeviceCatalog::builtin();
    std::string error;
    ASSERT_TRUE(c.addFile(file, &error)) << error;
    PeakOptions o;
    o.catalog = &c;
    o.device = "Acme X1";
    const PeakShare p = peakShare("r50", "fp32", 1, 400.0, o);
    ASSERT_TRUE(p.pct);
    EXPECT_NEAR(*p.pct, 100.0 * 400.0 * 24.5351e9 / 20e12, 1e-9);
    EXPECT_EQ(p.device, "acme-x1");
    EXPECT_NE(p.source.find("user catalogue " + file.string()), std::string::npos) << p.source;
    // The user's entry for a name we also know replaces ours.
    o.device = "Tesla V100-SXM2-16GB";
    EXPECT_DOUBLE_EQ(peakShare("r50", "fp32", 1, 400.0, o).peakTflops, 14.0);

    // A malformed file is refused whole, naming the file, the entry and the field.
    {
        std::ofstream out(file);
        out << R"({"devices": [{"id": "bad", "peaks": {"fp32": {"tflops": -1, "source": "x"}}}]})";
    }
    DeviceCatalog d = DeviceCatalog::builtin();
    EXPECT_FALSE(d.addFile(file, &error));
    EXPECT_NE(error.find(file.string()), std::string::npos) << error;
    EXPECT_NE(error.find("devices[0] (bad).peaks.fp32.tflops: not a positive number"),
              std::string::npos)
        << error;
    std::filesystem::remove(file);
}
