// Forward + backward time of each model (the speed check): the classifiers at batch 32 x length 50 x
// d_model 300, the time-series regressors at batch 32 x window 50 x 16 driving series x d_model 64 (MSE).
// Compare with benchmarks/model_step.py, the same models written in PyTorch (Python), on the same machine.
//   attnlab-bench-models [--repeats N] [--warmup N] [--threads N] [--models a,b:pos,...] [--gemm N]
// --gemm N: first, these cores' large-GEMM rate with this LibTorch's BLAS (an N x N by N x N fp32 product, 2 N^3
// FLOPs; "share of the GEMM rate", benchmarks/gemm_share.py divides each model's FLOPs by it).
// --models keeps the cases labelled "model" or "model:pos" as printed (essan-mean: ESSAN with mean pooling;
// essan-ts: the time-series ESSAN; gpt: the GPT at nanoGPT's laptop sizes, 12 windows of 64 characters, 65 symbols).
// --trace DIR: after timing, 10 more steps of each classifier and language model under LibTorch's profiler, written as a Chrome trace
// DIR/<model>-<pos>.json; benchmarks/trace_ops.py adds up each operator's own time in it (where a step goes).
// --adam 1: then each classifier's Adam step over its parameters, SST-fine's 18,280 x 300 word table among them as
// in training, from one backward's gradients: LibTorch's torch::optim::Adam against the trainer's FusedCpuAdam.
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/FusedCpuAdam.h"
#include "core/training/ComputeDevice.h"

#include <torch/csrc/autograd/profiler_legacy.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

struct Case {
    const char* label;    // printed model column; unique with pos
    const char* model;    // registry id
    const char* position;
    int heads;
    const char* pooling;  // "" = the model's default
    int layers = 1;
};

template <typename Step>
double medianMs(Step step, int warmup, int repeats)
{
    std::vector<double> times;
    for (int r = 0; r < warmup + repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        step();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (r >= warmup)
            times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int repeats = 20, warmup = 3, threads = 0, gemm = 0;
    std::string traceDir;
    bool adam = false;
    bool setToNone = false; // as the trainer: gradients zeroed in place; --set-to-none 1 is LibTorch C++ 1.13's default
    std::vector<std::string> wanted; // empty = every case
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--repeats") repeats = std::stoi(value);
        else if (flag == "--warmup") warmup = std::stoi(value);
        else if (flag == "--threads") threads = std::stoi(value);
        else if (flag == "--gemm") gemm = std::stoi(value);
        else if (flag == "--set-to-none") setToNone = value != "0";
        else if (flag == "--trace") traceDir = value;
        else if (flag == "--adam") adam = value != "0";
        else if (flag == "--models") {
            std::istringstream list(value);
            for (std::string item; std::getline(list, item, ',');)
                if (!item.empty())
                    wanted.push_back(item);
        } else { std::fprintf(stderr, "unknown option %s\n", flag.c_str()); return 2; }
    }
    ComputeDevice::setThreads(threads);
    // Heads: ESSAN 15 (thesis Table 5.5), Transformer 6; SSAN single-head; the regressors take the registry
    // defaults (ESSAN 1 head, RPR k = 10).
    const std::vector<Case> classifiers = {
        {"ssan", "ssan", "none", 1, ""},          {"ssan", "ssan", "rpr", 1, ""},
        {"ssan", "ssan", "sinusoidal", 1, ""},    {"ssan", "ssan", "learned", 1, ""},
        {"ssan2", "ssan", "rpr", 1, "", 2},
        {"ssan", "ssan", "rope", 1, ""},          {"ssan", "ssan", "alibi", 1, ""},
        {"essan", "essan", "rpr", 15, ""},        {"essan-mean", "essan", "rpr", 15, "mean"},
        {"transformer", "transformer", "rpr", 6, ""},
        {"rnn", "rnn", "none", 1, ""},            {"lstm", "lstm", "none", 1, ""},
        {"bilstm", "bilstm", "none", 1, ""},      {"gru", "gru", "none", 1, ""},
        {"rnn-attention", "rnn-attention", "none", 1, ""}, {"cnn", "cnn", "none", 1, ""},
        {"bow", "bow", "none", 1, ""},            {"ave", "ave", "none", 1, ""}};
    const std::vector<Case> languageModels = {{"gpt", "gpt", "learned", 4, ""}, {"gpt", "gpt", "rope", 4, ""}};
    const std::vector<Case> regressors = {
        {"essan-ts", "essan", "rpr", 1, ""}, {"narx", "narx", "none", 1, ""}, {"encdec", "encdec", "none", 1, ""},
        {"attn-rnn", "attn-rnn", "none", 1, ""}, {"darnn", "darnn", "none", 1, ""}};
    auto labels = [](const Case& c) { return std::vector<std::string>{c.label, std::string(c.label) + ":" + c.position}; };
    auto chosen = [&](const std::vector<Case>& cases) {
        std::vector<Case> kept;
        for (const auto& c : cases)
            for (const auto& l : labels(c))
                if (wanted.empty() || std::find(wanted.begin(), wanted.end(), l) != wanted.end()) {
                    kept.push_back(c);
                    break;
                }
        return kept;
    };
    for (const auto& w : wanted) {
        bool known = false;
        for (const auto* cases : {&classifiers, &languageModels, &regressors})
            for (const auto& c : *cases)
                for (const auto& l : labels(c))
                    known = known || l == w;
        if (!known)
            std::printf("# no case is labelled %s\n", w.c_str());
    }

    torch::manual_seed(0);
    if (gemm > 0) {
        const auto a = torch::randn({gemm, gemm}), b = torch::randn({gemm, gemm});
        const double ms = medianMs([&] { (void)torch::mm(a, b); }, 2, 5);
        std::printf("# GEMM %d x %d fp32: %.1f ms, %.1f GFLOP/s (LibTorch %s, %d threads)\n", gemm, gemm, ms,
                    2.0 * gemm * gemm * gemm / (ms * 1e6), ComputeDevice::torchVersion().c_str(), torch::get_num_threads());
    }
    const int64_t batch = 32, length = 50, vocab = 20000, drivers = 16;
    auto ids = torch::randint(1, vocab, {batch, length}, torch::kLong);
    auto mask = torch::ones({batch, length}, torch::kBool);
    auto classes = torch::randint(0, 5, {batch}, torch::kLong);
    auto series = torch::randn({batch, length, drivers});
    auto history = torch::randn({batch, length});
    auto target = torch::randn({batch, 1}); // one step ahead: [B, H = 1]
    std::printf("# LibTorch %s, %d threads, median of %d\n", ComputeDevice::torchVersion().c_str(),
                torch::get_num_threads(), repeats);
    if (const auto cases = chosen(classifiers); !cases.empty()) {
        std::printf("# classification: batch %lld x length %lld, d_model 300, cross-entropy\n",
                    static_cast<long long>(batch), static_cast<long long>(length));
        std::printf("%-14s %-10s %12s %10s%s\n", "model", "pos", "params", "ms/step",
                    adam ? "  adam ms: LibTorch      fused" : "");
        for (const auto& c : cases) {
            ModelConfig config;
            config.model = c.model;
            config.position = c.position;
            config.dModel = 300;
            config.heads = c.heads;
            config.rprClip = 10;
            config.pooling = c.pooling;
            config.layers = c.layers;
            config.vocabularySize = vocab;
            config.numClasses = 5;
            auto model = ModelFactory::create(config);
            model->train();
            auto step = [&] {
                model->zero_grad(setToNone);
                torch::nn::functional::cross_entropy(model->forward(ids, mask), classes).backward();
            };
            const double ms = medianMs(step, warmup, repeats);
            std::printf("%-14s %-10s %12lld %10.1f", c.label, c.position,
                        static_cast<long long>(model->trainableParametersWithoutEmbedding()), ms);
            if (adam) {
                // Each optimiser on its own copy of the parameters, with one backward's gradients; the word table
                // at SST-fine's size (the model above was built for the benchmark's 20,000-word batches).
                auto copies = [&] {
                    std::vector<torch::Tensor> kept;
                    for (const auto& p : model->parameters()) {
                        if (!p.requires_grad())
                            continue;
                        auto q = (p.dim() == 2 && p.size(0) == vocab ? torch::randn({18280, p.size(1)}) : p.detach().clone());
                        q.requires_grad_(true);
                        q.mutable_grad() = torch::randn_like(q);
                        kept.push_back(q);
                    }
                    return kept;
                };
                auto theirs = copies(), ours = copies();
                torch::optim::Adam libtorch(theirs, torch::optim::AdamOptions(1e-3));
                FusedCpuAdam fused(ours);
                const double libtorchMs = medianMs([&] { libtorch.step(); }, warmup, repeats);
                const double fusedMs = medianMs([&] { fused.step(1e-3); }, warmup, repeats);
                std::printf("  %17.2f %10.2f", libtorchMs, fusedMs);
            }
            std::printf("\n");
            std::fflush(stdout);
            if (!traceDir.empty()) {
                torch::autograd::profiler::RecordProfile profile(traceDir + "/" + c.label + "-" + c.position + ".json");
                for (int r = 0; r < 10; ++r)
                    step();
            }
        }
    }
    if (const auto cases = chosen(languageModels); !cases.empty()) {
        // nanoGPT's laptop configuration: 4 layers x 4 heads, d_model 128, context 64, batch 12, no dropout.
        const int64_t rows = 12, context = 64, symbols = 65;
        const auto windows = torch::randint(0, symbols, {rows, context + 1}, torch::kLong);
        const auto input = windows.narrow(1, 0, context), next = windows.narrow(1, 1, context).reshape({-1});
        std::printf("# language model: batch %lld x context %lld, %lld symbols, d_model 128, cross-entropy\n",
                    static_cast<long long>(rows), static_cast<long long>(context), static_cast<long long>(symbols));
        std::printf("%-14s %-10s %12s %10s\n", "model", "pos", "params", "ms/step");
        for (const auto& c : cases) {
            ModelConfig config;
            config.model = c.model;
            config.position = c.position;
            config.dModel = 128;
            config.heads = c.heads;
            config.layers = 4;
            config.context = static_cast<int>(context);
            config.vocabularySize = static_cast<int>(symbols);
            config.dropoutPoints = "none"; // nanoGPT's laptop run: dropout 0
            auto model = ModelFactory::createLanguageModel(config);
            model->train();
            auto step = [&] {
                model->zero_grad(setToNone);
                torch::nn::functional::cross_entropy(model->forward(input).reshape({-1, symbols}), next).backward();
            };
            const double ms = medianMs(step, warmup, repeats);
            std::printf("%-14s %-10s %12lld %10.2f\n", c.label, c.position, static_cast<long long>(model->trainableParameters()), ms);
            std::fflush(stdout);
            if (!traceDir.empty()) {
                torch::autograd::profiler::RecordProfile profile(traceDir + "/" + c.label + "-" + c.position + ".json");
                for (int r = 0; r < 10; ++r)
                    step();
            }
        }
    }
    if (const auto cases = chosen(regressors); !cases.empty()) {
        std::printf("# time series: batch %lld x window %lld, %lld driving series, d_model 64, MSE\n",
                    static_cast<long long>(batch), static_cast<long long>(length), static_cast<long long>(drivers));
        std::printf("%-14s %-10s %12s %10s%s\n", "model", "pos", "params", "ms/step",
                    adam ? "  adam ms: LibTorch      fused" : "");
        for (const auto& c : cases) {
            ModelConfig config; // as tests/core/test_regression.cpp: drivers and window make it a regressor
            config.model = c.model;
            config.position = c.position;
            config.dModel = 64;
            config.heads = c.heads;
            config.drivers = static_cast<int>(drivers);
            config.window = static_cast<int>(length);
            auto model = ModelFactory::createRegressor(config);
            model->train();
            const double ms = medianMs([&] {
                model->zero_grad(setToNone);
                torch::mse_loss(model->forward(series, history), target).backward();
            }, warmup, repeats);
            std::printf("%-14s %-10s %12lld %10.1f\n", c.label, c.position,
                        static_cast<long long>(model->trainableParameters()), ms);
            std::fflush(stdout);
        }
    }
    return 0;
}
