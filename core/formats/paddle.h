#pragma once
// PaddlePaddle 1.8: ResNet-50's per-batch lines from trainer 0 ("2020-08-21 10:00:07,123-INFO:
// [Pass 0, train batch 19] \tloss ..., elapse 0.3625 sec") and BERT's ("epoch: 0, progress: 1/1,
// step: 20, ..., speed: 1.491234 steps/s, file: ..."); DLPerf's PaddlePaddle scripts.

#include "core/parse/logformat.h"

namespace sv {

LogFormat paddleRn50Format();
LogFormat paddleBertFormat();

void parsePaddleRn50(std::string_view text, std::size_t markerPos, SpeedSample& sample);
void parsePaddleBert(std::string_view text, std::size_t markerPos, SpeedSample& sample);
bool isPaddleRn50Line(std::string_view line);
bool isPaddleBertLine(std::string_view line);

} // namespace sv
