#include "core/formats/formatregistry.h"

#include "core/formats/generalreader.h"

#include "core/formats/insightface.h"
#include "core/formats/insightfaceoneflow.h"
#include "core/formats/mindspore.h"
#include "core/formats/mxnetgluon.h"
#include "core/formats/ngctfbert.h"
#include "core/formats/oneflow.h"
#include "core/formats/paddle.h"
#include "core/formats/pytorchrn50.h"
#include "core/formats/realworld.h"
#include "core/formats/tf2.h"
#include "core/parse/dlloggerline.h"

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace sv {
namespace {

bool isMxnetSpeedometerLine(std::string_view line) {
    const auto at = line.find(" Epoch[");
    return at != std::string_view::npos && line.find("Speed: ", at) != std::string_view::npos &&
           line.find("samples/sec", at) != std::string_view::npos;
}

const LogFormat kFormats[] = {
    {"ngc-mxnet", "NGC MXNet",
     "NVIDIADeepLearningExamples/MxNet/Classification/RN50v1.5/extract_mxnet_logs.py",
     "NVIDIADeepLearningExamples/MxNet/Classification/RN50v1.5/extract_mxnet_logs_time.py",
     "images/s", 20, 120, FormatFamily::MxnetSpeedometer, mxnetSpeedometer(), -1,
     &isMxnetSpeedometerLine},
    {"ngc-pytorch-rn50", "NGC PyTorch", "",
     "NVIDIADeepLearningExamples/PyTorch/resnet50v1.5/extract_pytorch_logs_time.py", "images/s", 20,
     120, FormatFamily::StepTimestamps,
     MessageFormat{"dll-pytorch-rn50", "Iteration: ", &parseDllPytorchRn50}, 5,
     &isDllPytorchRn50Line},
    {"ngc-pytorch-bert", "NGC PyTorch", "",
     "NVIDIADeepLearningExamples/PyTorch/BERT/extract_pytorch_logs_time.py", "sequences/s", 20, 110,
     FormatFamily::StepTimestamps,
     MessageFormat{"dll-pytorch-bert", "Training Epoch: ", &parseDllPytorchBert}, 5,
     &isDllPytorchBertLine},
    {"ngc-tf-rn50", "NGC TensorFlow 1",
     "NVIDIADeepLearningExamples/TensorFlow/Classification/ConvNets/resnet50v1.5/"
     "extract_tensorflow_logs.py",
     "NVIDIADeepLearningExamples/TensorFlow/Classification/ConvNets/resnet50v1.5/"
     "extract_tensorflow_logs_time.py",
     "images/s", 20, 120, FormatFamily::LoggedRates,
     MessageFormat{"dll-tf-rn50", " imgs_per_sec ", &parseDllTfRn50}, -1, &isDllTfRn50Line, 20},
    ngcTfBertFormat(),
    tf2Rn50Format(),
    tf2BertFormat(),
    paddleRn50Format(),
    paddleBertFormat(),
    pytorchRn50Format(),
    mxnetGluoncvRn50Format(),
    mxnetGluonnlpBertFormat(),
    mindsporeRn50Format(),
    mindsporeBertFormat(),
    oneflowCnnFormat(),
    oneflowBertFormat(),
    insightfaceArcfaceFormat(),
    insightfacePartialfcFormat(),
    oneflowInsightfaceFormat(),
};

} // namespace

std::span<const LogFormat> logFormats() {
    return kFormats;
}

const LogFormat& ngcMxnetFormat() {
    return kFormats[0];
}

const LogFormat* findLogFormat(std::string_view id) {
    for (const auto& f : kFormats)
        if (f.id == id) return &f;
    for (const auto& f : realWorldFormats())
        if (f.id == id) return &f;
    for (const LogFormat* f : registeredLogFormats())
        if (f->id == id) return f;
    return findGeneralFormat(id);
}

const LogFormat& logFormatOf(std::string_view id) {
    const LogFormat* f = findLogFormat(id);
    return f ? *f : ngcMxnetFormat();
}

std::string logFormatIds() {
    std::string s;
    for (const auto& f : kFormats)
        s += (s.empty() ? "" : ", ") + std::string(f.id);
    for (const LogFormat* f : registeredLogFormats())
        s += ", " + std::string(f->id);
    return s;
}

const LogFormat* detectLogFormat(std::string_view head, std::int64_t* lineOut) {
    const std::string_view all = head;
    std::int64_t line = 0;
    while (!head.empty() && line < kDetectLines) {
        const auto nl = head.find('\n');
        const std::string_view text = head.substr(0, nl);
        ++line;
        for (const auto& f : kFormats)
            if (f.detect(text)) {
                if (lineOut) *lineOut = line;
                return &f;
            }
        if (nl == std::string_view::npos) break;
        head.remove_prefix(nl + 1);
    }
    // Formats registered at run time (users' format files) after every built-in one, over the
    // same lines: a user format never takes a log that a built-in format reads.
    const auto registered = registeredLogFormats();
    if (registered.empty()) return nullptr;
    head = all;
    line = 0;
    while (!head.empty() && line < kDetectLines) {
        const auto nl = head.find('\n');
        const std::string_view text = head.substr(0, nl);
        ++line;
        for (const LogFormat* f : registered)
            if (f->detectWith ? f->detectWith(f->context, text) : f->detect && f->detect(text)) {
                if (lineOut) *lineOut = line;
                return f;
            }
        if (nl == std::string_view::npos) break;
        head.remove_prefix(nl + 1);
    }
    return nullptr;
}

// Formats registered at run time: a fixed array of slots, each written once before the count
// that publishes it, so readers on other threads need no lock.
namespace {
constexpr std::size_t kMaxRegistered = 256;
std::array<const LogFormat*, kMaxRegistered> g_registered{};
std::atomic<std::size_t> g_registeredCount{0};
std::mutex g_registerMutex;
} // namespace

const LogFormat& registerLogFormat(LogFormat format) {
    std::lock_guard lock(g_registerMutex);
    const std::size_t n = g_registeredCount.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < n; ++i)
        if (g_registered[i]->id == format.id) return *g_registered[i];
    if (n >= kMaxRegistered) throw std::length_error("more than 256 registered log formats");
    g_registered[n] = new LogFormat(format); // lives as long as the program
    g_registeredCount.store(n + 1, std::memory_order_release);
    return *g_registered[n];
}

std::span<const LogFormat* const> registeredLogFormats() {
    return {g_registered.data(), g_registeredCount.load(std::memory_order_acquire)};
}

} // namespace sv
