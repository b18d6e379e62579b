#pragma once
// The MindSpore 1.1 formats of DLPerf: ResNet-50 ("epoch: E step: S, loss is L" from LossMonitor)
// and BERT-base ("epoch: E, current epoch percent: P, step: S, outputs are ..." with a cumulative
// step), each followed by TimeMonitor's "epoch time: X ms, per step time: Y ms" per sink of
// steps; every rank in one file. Read by MindSpore/.../extract_mindspore_logs_time.py.

#include "core/parse/logformat.h"

namespace sv {

LogFormat mindsporeRn50Format();
LogFormat mindsporeBertFormat();

} // namespace sv
