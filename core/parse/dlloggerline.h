#pragma once
// NVIDIA dllogger's StdOut lines, as NGC PyTorch prints them on rank 0:
// "DLL 2020-09-15 14:29:14.427490 - Epoch: 0 Iteration: 2  train.loss : 6.93 ...".

#include "core/model/sample.h"

#include <string_view>

namespace sv {

// The first "YYYY-MM-DD HH:MM:SS.ffffff" after "DLL " in the line, as DLPerf's regex finds it.
void readDllTime(std::string_view text, SpeedSample& sample);

// ResNet-50: "Epoch: E Iteration: I  train.loss : L  train.total_ips : X img/s".
void parseDllPytorchRn50(std::string_view text, std::size_t markerPos, SpeedSample& sample);
// BERT: "Training Epoch: E Training Iteration: I  average_loss : L ...".
void parseDllPytorchBert(std::string_view text, std::size_t markerPos, SpeedSample& sample);

// NGC TensorFlow 1 ResNet-50: "(E, S) imgs_per_sec : X cross_entropy : ...", logged from step
// 21 on; S is the sample's iteration, X its speed (DLPerf's "\d+.\d+ " or nothing).
void parseDllTfRn50(std::string_view text, std::size_t markerPos, SpeedSample& sample);

bool isDllPytorchRn50Line(std::string_view line);
bool isDllTfRn50Line(std::string_view line);
bool isDllPytorchBertLine(std::string_view line);

} // namespace sv
