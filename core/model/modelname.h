#pragma once
// One name per model, whatever a runner's file names call it: DLPerf's NGC MXNet runners write
// r50_b128_fp32_1.log, its TensorFlow 2 runner rn50_..., others resnet50 or resnet50_v1.5.

#include <string>
#include <string_view>

namespace sv {

// "r50" for ResNet-50 v1.5 under any of its spellings (r50, rn50, resnet50, resnet-50,
// resnet_50, resnet50v1.5, resnet50_v1.5, rn50_v1.5, ... in any case); any other name as given.
// Run keys are formed with it, so that one model's cases meet across frameworks.
std::string canonicalModel(std::string_view model);

} // namespace sv
