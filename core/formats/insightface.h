#pragma once
// The MXNet formats of DLPerf's InsightFace report: ArcFace (insightface's train_parall.py, the
// MXNet Speedometer every 20 batches: "INFO:root:Epoch[0] Batch [20-40]\tSpeed: X samples/sec",
// one process per node) and Partial-FC (train_memory.py, rank 0's "INFO:root:Iter:N Rank:R it/sec
// Total:T it/sec"), each read by its MxNet/InsightFace/.../extract_mxnet_logs.py.

#include "core/parse/logformat.h"

namespace sv {

LogFormat insightfaceArcfaceFormat();
LogFormat insightfacePartialfcFormat();

// How the InsightFace parsers tell their analyzers what DLPerf's script makes of a line, in the
// sample's dlperf fields: a line the script does not read has no hasDlperfValue; one it reads
// has its value, or NaN where its regex finds none (no match of "\d+\.\d+" is NaN): the script
// raises there.
void parseArcfaceLine(std::string_view text, std::size_t markerPos, SpeedSample& sample);
void parsePartialfcLine(std::string_view text, std::size_t markerPos, SpeedSample& sample);

} // namespace sv
