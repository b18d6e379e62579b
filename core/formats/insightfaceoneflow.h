#pragma once
// OneFlow's InsightFace format in DLPerf's InsightFace report (oneflow_face's
// insightface_train.py: "train: iter N, loss L, throughput: T" every iteration from 0, T the
// whole job's samples/s), read by OneFlow/Recognition/insightface/extract_oneflow_logs_time.py.

#include "core/parse/logformat.h"

namespace sv {

LogFormat oneflowInsightfaceFormat();

// The iteration as DLPerf's int() reads it (hasIteration false where it raises) and the
// throughput as its float() does (hasSpeed and hasDlperfValue false where it raises).
void parseOneflowFaceLine(std::string_view text, std::size_t markerPos, SpeedSample& sample);

} // namespace sv
