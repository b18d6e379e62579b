#pragma once
// The MXNet gluon formats of DLPerf: gluon-cv ResNet-50 v1b ("INFO:root:Epoch[0] Batch[N]\tSpeed:
// X samples/sec", rank 0) and gluon-nlp BERT-base ("[step N] ... latency=X ms/batch", every rank
// in one file), each read by its MxNet/.../extract_mxnet_logs.py.

#include "core/parse/logformat.h"

namespace sv {

LogFormat mxnetGluoncvRn50Format();
LogFormat mxnetGluonnlpBertFormat();

// DLPerf's re.findall(prefix + r"(\d+.\d+)" + suffix, line)[0] then float(): true when the
// regex matches (*matched), and the value when float() takes it (false when it raises).
bool readDlperfDecimal(std::string_view text, std::string_view prefix, std::string_view suffix,
                       double& value, bool* matched = nullptr);

} // namespace sv
