#pragma once
// PyTorch 1.6 torchvision ImageNet example, ResNet-50: every GPU process prints its
// ProgressMeter lines ("Epoch: [0][ 6/53]\tTime  0.403 ( 2.123)\tData ...") into one file, each
// in blocks of about 8 KiB; DLPerf's PyTorch/resnet50v1.5/extract_pytorch_logs_time.py.

#include "core/parse/logformat.h"

namespace sv {

LogFormat pytorchRn50Format();

void parsePytorchRn50(std::string_view text, std::size_t markerPos, SpeedSample& sample);
bool isPytorchRn50Line(std::string_view line);

} // namespace sv
