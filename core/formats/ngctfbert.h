#pragma once
// NGC TensorFlow 1 BERT-base: rank 0's dllogger lines "DLL <date time> - Iteration: N
// throughput_train : X seq/s ...", printed at step 1 and every 10 steps with the mean rate since
// the previous print; DLPerf's extract_tensorflow_logs.py and _time.py.

#include "core/parse/logformat.h"

namespace sv {

LogFormat ngcTfBertFormat();

void parseNgcTfBert(std::string_view text, std::size_t markerPos, SpeedSample& sample);
bool isNgcTfBertLine(std::string_view line);

} // namespace sv
