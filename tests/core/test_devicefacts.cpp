// Issue 35, item 2: GPU counts the development set's logs state as systems, per node, in a
// launcher's words or in parameter dumps of their own (each with where it was read), and the
// devices that are no GPUs, said as the reason a run's GPUs stay "?". Fixtures in the shapes of
// the real logs (MLPerf HPC and training records, NVLOG, maskrcnn-benchmark, PaddleNLP).

#include "core/load/runidentity.h"
#include "core/parse/devicefacts.h"
#include "core/parse/runfacts.h"

#include <gtest/gtest.h>

using namespace sv;

namespace {

std::string value(const std::optional<RunFact>& f) {
    return f ? f->value : "-";
}

std::string mllog(const std::string& key, const std::string& value) {
    return ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1633645273117, \"event_type\": "
           "\"POINT_IN_TIME\", \"key\": \"" +
           key + "\", \"value\": " + value +
           ", \"metadata\": {\"file\": \"train.py\", \"lineno\": 164}}\n";
}

// The "GPUs ..." line of a run's key origins.
std::string gpusDetail(const RunFacts& facts) {
    std::vector<Warning> warnings;
    const RunKey key = identifyRun(facts, PathHints{}, std::nullopt, "run.log", warnings);
    for (const auto& d : key.origins.details)
        if (d.rfind("GPUs", 0) == 0) return d;
    return {};
}

} // namespace

TEST(DeviceFacts, MlperfAcceleratorsPerNodeTimesItsNodes) {
    // MLPerf HPC (cosmoflow, JUWELS Booster): 128 nodes of 4 A100s, the platform a GPU's name.
    const RunFacts f =
        readRunFacts(mllog("submission_platform", "\"A100\"") + mllog("number_of_nodes", "128") +
                     mllog("accelerators_per_node", "4") + mllog("global_batch_size", "512"));
    EXPECT_EQ(value(f.gpus), "512");
    EXPECT_EQ(value(f.nodes), "128");
    ASSERT_TRUE(f.gpus);
    EXPECT_EQ(f.gpus->line, 3);
    EXPECT_FALSE(f.gpus->counted);
    EXPECT_NE(f.gpus->evidence.find("accelerators_per_node 4 x number_of_nodes 128"),
              std::string::npos)
        << f.gpus->evidence;
    EXPECT_NE(gpusDetail(f).find("GPUs 512: log, line 3"), std::string::npos) << gpusDetail(f);
}

TEST(DeviceFacts, MlperfPlatformOfKnownSystems) {
    struct Case {
        std::string text, gpus, nodes;
    };
    const Case cases[] = {
        {mllog("submission_platform", "\"64xNVIDIA DGX H100\""), "512", "64"},
        {mllog("submission_platform", "\"1xNVIDIA DGX A100\""), "8", "1"},
        // MLPerf v0.6's records
        {":::MLL 1558635870.446 submission_platform: {\"value\": \"130xDGX-1 with V100\", "
         "\"metadata\": {\"file\": \"mlperf_log_utils.py\", \"lineno\": 243}}\n",
         "1040", "-"},
        {mllog("submission_platform", "\"2xDGX-2H\""), "32", "2"},
    };
    for (const auto& c : cases) {
        const RunFacts f = readRunFacts("starting\n" + c.text);
        EXPECT_EQ(value(f.gpus), c.gpus) << c.text;
        if (c.nodes != "-") {
            EXPECT_EQ(value(f.nodes), c.nodes) << c.text;
        }
        ASSERT_TRUE(f.gpus) << c.text;
        EXPECT_EQ(f.gpus->line, 2);
        EXPECT_NE(f.gpus->evidence.find("submission_platform"), std::string::npos);
    }
    EXPECT_EQ(gpusOfSystem("NVIDIA DGX A100"), 8);
    EXPECT_EQ(gpusOfSystem("DGX-2H"), 16);
    EXPECT_FALSE(gpusOfSystem("G593-SD1"));
    EXPECT_FALSE(gpusOfSystem("A100"));
}

TEST(DeviceFacts, NvlogArgsWorldSize) {
    const RunFacts f = readRunFacts(
        ":::NVLOGv0.1.0 ncf 1583723491.818964005 (ncf.py:171) gpu_info: {\"driver_version\": "
        "\"440.33.01\", \"num\": 8}\n:::NVLOGv0.2.2 Tacotron2_PyT 1583722983.519589663 "
        "(/workspace/examples/tacotron2/dllogger/logger.py:251) args: {\"output_directory\": "
        "\"./\", \"epochs\": 3, \"batch_size\": 220, \"layers\": [256, 128], \"rank\": 0, "
        "\"world_size\": 8, \"dist_url\": \"tcp://localhost:23456\"}\n");
    EXPECT_EQ(value(f.gpus), "8");
    ASSERT_TRUE(f.gpus);
    EXPECT_EQ(f.gpus->line, 2);
    EXPECT_EQ(value(f.batch), "220");
}

TEST(DeviceFacts, UsingNGpusIsATotal) {
    const RunFacts f = readRunFacts(
        "2020-03-09 03:23:05,056 maskrcnn_benchmark INFO: Using 8 GPUs\n2020-03-09 "
        "03:23:05,056 maskrcnn_benchmark INFO: Namespace(config_file='/workspace/e2e.yaml', "
        "distributed=True, local_rank=0)\n");
    EXPECT_EQ(value(f.gpus), "8");
    ASSERT_TRUE(f.gpus);
    EXPECT_EQ(f.gpus->evidence, "Using 8 GPUs");
    EXPECT_FALSE(readRunFacts("Using 1 GPU per process\n").gpus);
    EXPECT_FALSE(readRunFacts("Using 2 GPUs per node\n").gpus);
}

TEST(DeviceFacts, PaddedParameterDumpLines) {
    // PaddleNLP's TrainingArguments, coloured; Transformer-XL's "- key : value".
    const RunFacts paddle = readRunFacts(
        "\x1b[32m[2022-08-31 14:25:42,861] [    INFO]\x1b[0m - local_rank                    "
        ":-1\x1b[0m\n\x1b[32m[2022-08-31 14:25:42,864] [    INFO]\x1b[0m - world_size        "
        "            :1\x1b[0m\n");
    EXPECT_EQ(value(paddle.gpus), "1");
    ASSERT_TRUE(paddle.gpus);
    EXPECT_EQ(paddle.gpus->line, 2);
    const RunFacts txl = readRunFacts("    - batch_size : 320\n    - local_rank : 0\n");
    EXPECT_EQ(value(txl.batch), "320");
    // Prose with a dash is no dump: "loss: 0.5" has no blank before its colon.
    const RunFacts prose = readRunFacts("epoch 3 - world_size: 4\n");
    EXPECT_FALSE(prose.gpus);
}

TEST(DeviceFacts, DevicesThatAreNoGpusAreTheReason) {
    struct Case {
        std::string text, says;
    };
    const Case cases[] = {
        {"I0822 20:19:14.923368 140195756140288 tf_logging.py:115] *** Num TPU Cores: 8\n",
         "TPU cores"},
        {mllog("submission_platform", "\"gaudi-8\""), "Gaudi"},
        {mllog("submission_platform", "\"Intel Xeon (R) codenamed Sapphire Rapids\""), "CPUs"},
        {mllog("submission_platform", "\"1xG593-SD1\""), "1 system of a kind"},
        {"2022-11-14 21:08:43.000306: INFO ||NCC_WRAPPER||: Using a cached neff at "
         "/var/tmp/neuron-compile-cache/USER_neuroncc-2.2.0.73+0af5a171c/MODULE_1\n",
         "Neuron"},
    };
    for (const auto& c : cases) {
        const RunFacts f = readRunFacts(c.text);
        EXPECT_FALSE(f.gpus) << c.text;
        ASSERT_TRUE(f.uncountedDevices) << c.text;
        const std::string detail = gpusDetail(f);
        EXPECT_EQ(detail.rfind("GPUs ?: ", 0), 0u) << detail;
        EXPECT_NE(detail.find(c.says), std::string::npos) << detail;
        EXPECT_NE(detail.find("line 1"), std::string::npos) << detail;
    }
    // A host's CPU named beside its GPUs is no CPU-only run.
    const RunFacts host = readRunFacts(mllog("submission_platform", "\"AMD EPYC 7763 with A100\""));
    EXPECT_FALSE(host.uncountedDevices);
    // A GPU count the log states wins over what it says of other devices.
    const RunFacts both = readRunFacts("*** Num TPU Cores: 8\nusing world size: 8\n");
    EXPECT_FALSE(both.uncountedDevices);
}

// MLPerf's run scripts clear caches and set up containers with srun steps of one task before the
// training launch: those are no count of the run (the DGX A100 RNN-T log read 1 GPU, the
// 32-node BERT log 32).
TEST(DeviceFacts, ALaunchersHelperStepIsNoRunSize) {
    const RunFacts f = readRunFacts(
        "+ srun --ntasks=1 bash -c 'echo -n '\\''Clearing cache on '\\'' && hostname && sync'\n"
        "+ srun --nodes=1 --ntasks=1 --container-name=rnn_speech_recognition python -c ''\n"
        "+ srun --mpi=none --ntasks=8 --ntasks-per-node=8 --container-name=rnnt "
        "./run_and_time.sh\n");
    EXPECT_EQ(value(f.gpus), "8");
    ASSERT_TRUE(f.gpus);
    EXPECT_EQ(f.gpus->line, 3);
    // An inline shell that wraps the launch is the launch.
    const RunFacts wrapped = readRunFacts(
        "+ docker exec -it cont bash -c 'mpirun --allow-run-as-root -np 16 ./run_and_time.sh'\n");
    EXPECT_EQ(value(wrapped.gpus), "16");
}
