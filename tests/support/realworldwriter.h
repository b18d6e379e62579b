#pragma once
// Logs in the shapes real training runs write outside DLPerf's runners (issue 26), generated:
// MLPerf's MXNet (Open MPI tags, rank 0's Speedometer every N batches, :::MLL lines), gluon-cv's
// train_imagenet.py, DLLogger text of NGC PyTorch (counters restart each epoch) and NGC
// TensorFlow (a wrapped PARAMETER line, stderr mixed in), gluon-nlp's BERT (throughput=K tks/s,
// no final newline) and InsightFace's MXNet. Values follow rate(k): tests know the median.

#include <cstdio>
#include <functional>
#include <string>

namespace sv::test {

using RateFn = std::function<double(int report)>;

inline std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// MLPerf v0.6 NVIDIA MXNet: `ranks` Open MPI ranks, rank 0 prints "Node[0] Epoch[e] Batch
// [a-b]\tSpeed:" every `every` batches, `reports` in all over epochs of `perEpoch` reports.
inline std::string mlperfMxnetLog(int ranks, int batch, int reports, const RateFn& rate,
                                  int every = 20, int perEpoch = 60, const char* eol = "\n") {
    std::string s = "Beginning trial 1 of 1\n";
    s += ":::MLL 1560848966.664 submission_benchmark: {\"value\": \"resnet\"}\n";
    s += ":::MLL 1560848966.667 submission_entry: {\"value\": \"{'nodes': \\\"{'num_accelerators': "
         "'" + std::to_string(ranks) + "', 'num_nodes': '1'}\\\"}\"}\n";
    for (int r = 0; r < ranks; ++r)
        s += "[1," + std::to_string(r) + "]<stderr>:2019-06-18 09:10:31,333 Node[" +
             std::to_string(r) + "] start with arguments Namespace(batch_size=" +
             std::to_string(batch) + ", dtype='float16', gpus='0', kv_store='horovod', "
             "network='resnet-v1b', num_layers=50)" + eol;
    for (int k = 0; k < reports; ++k) {
        const int e = k / perEpoch, b = (k % perEpoch) * every;
        s += "[1,0]<stderr>:2019-06-18 09:10:44,633 Node[0] Epoch[" + std::to_string(e) +
             "] Batch [" + std::to_string(b) + "-" + std::to_string(b + every) + "]\tSpeed: " +
             fixed(rate(k), 2) + " samples/sec\taccuracy=0.000916" + eol;
        if (k % 7 == 0)
            s += "[1,0]<stdout>::::MLL 1560848995.525 eval_start: {\"value\": null}" +
                 std::string(eol);
    }
    for (int r = 0; r < ranks; ++r)
        s += "[1," + std::to_string(r) + "]<stdout>:RESULT,IMAGE_CLASSIFICATION,,3612," + eol;
    return s;
}

// gluon-cv train_imagenet.py: one process on num_gpus GPUs, Speed every 50 batches, epoch lines.
inline std::string gluoncvLog(int numGpus, int batch, int reports, const RateFn& rate,
                              int perEpoch = 25) {
    std::string s = "Namespace(batch_norm=False, batch_size=" + std::to_string(batch) +
                    ", dtype='float16', lr=0.4, model='resnet50_v1b', num_gpus=" +
                    std::to_string(numGpus) + ", num_workers=60, use_rec=True)\n";
    for (int k = 0; k < reports; ++k) {
        const int e = k / perEpoch, b = (k % perEpoch) * 50 + 49;
        s += "Epoch[" + std::to_string(e) + "] Batch [" + std::to_string(b) + "]\tSpeed: " +
             fixed(rate(k), 6) + " samples/sec\taccuracy=0.868184\tlr=0.003133\n";
        if (k % perEpoch == perEpoch - 1)
            s += "[Epoch " + std::to_string(e) + "] training: accuracy=0.744984\n[Epoch " +
                 std::to_string(e) + "] speed: 4681 samples/sec\ttime cost: 283.533315\n";
    }
    return s;
}

// InsightFace's MXNet training: INFO:root: lines with acc=, a verification pause.
inline std::string insightfaceLog(int reports, const RateFn& rate) {
    std::string s = "gpu num: 8\nNamespace(batch_size=512, ctx_num=8, per_batch_size=64, "
                    "network='r100')\n";
    for (int k = 0; k < reports; ++k) {
        s += "INFO:root:Epoch[0] Batch [" + std::to_string(k * 20 + 20) + "]\tSpeed: " +
             fixed(rate(k), 2) + " samples/sec\tacc=0.000000\n";
        if (k == reports / 2) s += "testing verification..\n[lfw][2000]XNorm: 21.8\n";
    }
    return s;
}

// NGC PyTorch DLLogger text: a PARAMETER line, Iteration counters that restart each epoch,
// per-epoch and Summary lines.
inline std::string dllPytorchLog(int worldSize, int batch, int epochs, int perEpoch,
                                 const RateFn& rate, bool amp = false) {
    std::string s = "=> creating model '('resnet50', 'classic')'\n"
                    "DLL 2020-03-09 03:39:11.320178 - PARAMETER data : /data/imagenet  arch : "
                    "resnet50  batch_size : " + std::to_string(batch) +
                    "  lr : 0.1  fp16 : False  amp : " + (amp ? "True" : "False") +
                    "  distributed : True  local_rank : 0  world_size : " +
                    std::to_string(worldSize) + " \n";
    int k = 0;
    for (int e = 0; e < epochs; ++e) {
        for (int i = 1; i <= perEpoch; ++i, ++k)
            s += "DLL 2020-03-09 03:39:31.419192 - Epoch: " + std::to_string(e) +
                 " Iteration: " + std::to_string(i) + "  train.loss : 7.08172  train.total_ips : " +
                 fixed(rate(k), 2) + " img/s\n";
        s += "DLL 2020-03-09 03:40:54.472131 - Epoch: " + std::to_string(e) +
             "  train.loss : 7.00393  train.total_ips : 2837.39 img/s\n";
    }
    s += "DLL 2020-03-09 03:42:17.160482 - Summary: train.loss : 7.00393  train.total_ips : "
         "2862.86 img/s\n";
    return s;
}

// NGC TensorFlow ConvNets DLLogger text under Horovod: the PARAMETER line wrapped at 150
// columns, "Num GPUs", stdout and stderr concatenated.
inline std::string dllTfLog(int gpus, int batch, int reports, const RateFn& rate) {
    std::string param = "DLL 2020-06-20 01:15:38.036441 - PARAMETER arch : resnet50  mode : "
                        "training_benchmark  data_dir : gs://bucket/imagenet-2012-tfrecord  "
                        "batch_size : " + std::to_string(batch) +
                        "  num_iter : 2  warmup_steps : 50  precision : fp16  use_tf_amp : False  "
                        "seed : None  gpu_memory_fraction : 0.7";
    std::string s;
    for (std::size_t at = 0; at < param.size(); at += 150)
        s += param.substr(at, 150) + "\n";
    s += "Model HParams:\nName resnet50\ndtype <dtype: 'float16'>\nNum GPUs " +
         std::to_string(gpus) + "\nPer-GPU Batch Size " + std::to_string(batch) + "\n";
    for (int k = 0; k < reports; ++k)
        s += "DLL 2020-06-20 01:16:39.766736 - (0, " + std::to_string(50 + k) +
             ") total_ips : " + fixed(rate(k), 9) + "\n";
    s += "DLL 2020-06-20 01:22:56.358483 - () train_throughput : 6638.003508038038\n";
    for (int g = 0; g < gpus; ++g)
        s += "2020-06-20 01:15:36.381152: I tensorflow/stream_executor/platform/default/"
             "dso_loader.cc:44] Successfully opened dynamic library libcudart.so.10.0\n";
    return s;
}

// gluon-nlp BERT pretraining: throughput=K tks/s every 250 steps, no final newline.
inline std::string gluonnlpLog(const std::string& gpus, int reports, const RateFn& rate,
                               bool withBatch = true) {
    std::string s = "gluonnlp == 1251d05\nINFO:root:Namespace(accumulate=2, " +
                    std::string(withBatch ? "batch_size=16, " : "") +
                    "dtype='float16', gpus='" + gpus + "', kvstore='device_sync', "
                    "model='bert_12_768_12')\n";
    for (int k = 0; k < reports; ++k)
        s += "INFO:root:[step " + std::to_string(k * 250 + 249) +
             "]\tmlm_loss=9.24962\tnsp_acc=54.751\tthroughput=" + fixed(rate(k) / 1000.0, 1) +
             "K tks/s\tlr=0.0000025 time=163.24\n";
    s += "INFO:root:[step 999999] Saving checkpoints to /ckpt/0999999.params";
    return s;
}

} // namespace sv::test
