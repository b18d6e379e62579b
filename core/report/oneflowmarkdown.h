#pragma once
// What OneFlow's extract_cnn_result.py and extract_bert_result.py print (extract_util.py's
// markdown mode): every run's throughput, then each (nodes, GPUs, batch) group's median and
// speedup over 1n1g of the same batch.

#include <string>

namespace sv {

struct Summary;

// From dlperfView(...).summary: its complete runs, in path order, with DLPerf's figures.
std::string formatOneflowMarkdown(const Summary& summary);

} // namespace sv
