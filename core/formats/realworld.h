#pragma once
// The shapes real training runs write, outside DLPerf's runners: logs that report their own
// throughput every N iterations from one rank, read by SteadyStateAnalyzer (the log's own figures
// over a steady-state window). One format id per family variant (scaleview-cli formats lists them):
//
//   mxnet-speedometer  MXNet Speedometer, "Epoch[e] Batch [a-b]\tSpeed: X samples/sec", with or
//                      without asctime, INFO:root:, Node[n], Open MPI tags (MLPerf's MXNet)
//   gluoncv-speedometer    the same lines written by gluon-cv's train_imagenet.py (Namespace with
//                      num_gpus=, "[Epoch e] speed:" summaries)
//   insightface-speedometer    the same lines written by InsightFace (verification pauses)
//   dllogger-pytorch   "DLL ... Epoch: e Iteration: N ... train.total_ips : X img/s"
//   dllogger-tf        "DLL ... - (e, N) total_ips : X" (NGC TensorFlow ConvNets)
//   dllogger-json      "DLLL {... "step": [e, N], "data": {"total_ips": X}}"
//   gluonnlp-throughput    "[step N] ... throughput=122.0K tks/s" (K/M suffixes; tokens/s), and
//                      "[Epoch e Batch k/n] ... throughput=41.23K wps" (translation scripts)
//   tf-cnn-benchmarks  "N\timages/sec: X +/- Y (jitter = Z)\t..."; under Horovod (rank-tagged
//                      lines) each process's figure, taken times the ranks
//   keras-timehistory  "TimeHistory: S seconds, X examples/second between steps A and B"
//   pytorch-progressmeter  the PyTorch ImageNet example's "Epoch: [e][ k/n]\tTime  0.312 ( 0.745)"
//                      (seconds per step: throughput = batch x GPUs / time)
//
// These formats are chosen for logs outside DLPerf's layout only; a DLPerf tree reads as before.

#include "core/parse/logformat.h"

#include <span>
#include <string>
#include <string_view>

namespace sv {

std::span<const LogFormat> realWorldFormats();

// The format a log outside DLPerf's layout is read as, from its first lines (head): the
// real-world reading of the family its lines show, else a DLPerf format whose lines it holds;
// nullptr when none. *why says which was chosen and, where two readings fit, why this one.
// *candidate: the best rate line the general reader saw, where it read none (see generalreader.h).
struct RateCandidate;
const LogFormat* detectAnyLogFormat(std::string_view head, std::string* why = nullptr,
                                    RateCandidate* candidate = nullptr);

// Whether head looks like text at all (no NUL byte, few control bytes): binaries are skipped
// before any line is looked at.
bool looksLikeText(std::string_view head);

} // namespace sv
