// Forward + backward time of each model at batch 32 x length 50 x d_model 300 (issue 4's speed check).
// Compare with benchmarks/model_step.py, the same models written in PyTorch (Python), on the same machine.
//   attnlab-bench-models [--repeats N] [--warmup N] [--threads N]
#include "core/ComputeDevice.h"
#include "core/nn/ModelFactory.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace attnlab;

int main(int argc, char** argv)
{
    int repeats = 20, warmup = 3, threads = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const int value = std::stoi(argv[i + 1]);
        if (flag == "--repeats") repeats = value;
        else if (flag == "--warmup") warmup = value;
        else if (flag == "--threads") threads = value;
        else { std::fprintf(stderr, "unknown option %s\n", flag.c_str()); return 2; }
    }
    ComputeDevice::setThreads(threads);
    struct Case { const char* model; const char* position; int heads; };
    const std::vector<Case> cases = {{"ssan", "none", 1},  {"ssan", "rpr", 1},   {"essan", "rpr", 15},
                                     {"transformer", "rpr", 6}, {"lstm", "none", 1}, {"bilstm", "none", 1},
                                     {"gru", "none", 1},   {"cnn", "none", 1}};
    torch::manual_seed(0);
    const int64_t batch = 32, length = 50, vocab = 20000;
    auto ids = torch::randint(1, vocab, {batch, length}, torch::kLong);
    auto mask = torch::ones({batch, length}, torch::kBool);
    auto labels = torch::randint(0, 5, {batch}, torch::kLong);
    std::printf("# LibTorch %s, %d threads, batch %lld x length %lld, d_model 300, median of %d\n",
                ComputeDevice::torchVersion().c_str(), torch::get_num_threads(), static_cast<long long>(batch),
                static_cast<long long>(length), repeats);
    std::printf("%-12s %-6s %12s %10s\n", "model", "pos", "params", "ms/step");
    for (const auto& c : cases) {
        ModelConfig config;
        config.model = c.model;
        config.position = c.position;
        config.dModel = 300;
        config.heads = c.heads;
        config.rprClip = 10;
        config.vocabularySize = vocab;
        config.numClasses = 5;
        auto model = ModelFactory::create(config);
        model->train();
        std::vector<double> times;
        for (int r = 0; r < warmup + repeats; ++r) {
            const auto start = std::chrono::steady_clock::now();
            model->zero_grad();
            torch::nn::functional::cross_entropy(model->forward(ids, mask), labels).backward();
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            if (r >= warmup)
                times.push_back(ms);
        }
        std::sort(times.begin(), times.end());
        std::printf("%-12s %-6s %12lld %10.1f\n", c.model, c.position,
                    static_cast<long long>(model->trainableParametersWithoutEmbedding()), times[times.size() / 2]);
    }
    return 0;
}
