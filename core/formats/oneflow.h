#pragma once
// The OneFlow CNN and BERT formats of DLPerf: a "key = value" header (num_nodes,
// gpu_num_per_node, batch_size_per_device) then lines ending in a Unix timestamp
// ("train: epoch 0, iter 120, ... samples/s: X T", "step: 119, ... throughput: X T"), read by
// extract_cnn_result.py / extract_bert_result.py, which print Markdown tables.

#include "core/parse/logformat.h"

namespace sv {

LogFormat oneflowCnnFormat();
LogFormat oneflowBertFormat();

} // namespace sv
