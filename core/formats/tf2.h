#pragma once
// TensorFlow 2.3 official models, absl-logged ("I0915 14:30:13.000000 140123 file.py:145] ..."):
// ResNet-50's Keras TimeHistory lines every 100 steps ("TimeHistory: 51.00 seconds, 2509.80
// examples/second between steps 100 and 200") and BERT's custom loop ("Train Step: 20/120  /
// loss = 7.53"); DLPerf's TensorFlow/resnet50v1.5 and TensorFlow/bert scripts.

#include "core/parse/logformat.h"

namespace sv {

LogFormat tf2Rn50Format();
LogFormat tf2BertFormat();

void parseTf2Rn50(std::string_view text, std::size_t markerPos, SpeedSample& sample);
void parseTf2Bert(std::string_view text, std::size_t markerPos, SpeedSample& sample);
bool isTf2Rn50Line(std::string_view line);
bool isTf2BertLine(std::string_view line);

} // namespace sv
