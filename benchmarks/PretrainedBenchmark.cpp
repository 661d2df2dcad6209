// The pretrained encoder's goals, on 2 CPU cores: opening all-MiniLM-L6-v2 (config, vocabulary,
// 90 MB of safetensors mapped and copied into the model) in at most 1 s, and explaining a 30-piece sentence with
// all 72 maps and the rollout in at most 100 ms (median over --inputs sentences, after one warm-up).
//
//   attnlab-bench-pretrained [--data-dir DIR] [--loads 5] [--inputs 50] [--tokens 30] [--threads 2]
//
// The model is found as `attnlab-cli explain --pretrained minilm` finds it (import it first). Loads are timed
// with the files in the page cache (the second and later opens), as a user reopening the Explorer sees them; the
// first open is printed too.
#include "core/training/ComputeDevice.h"
#include "core/training/PretrainedEncoder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
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

} // namespace

int main(int argc, char** argv)
{
    const int loads = option(argc, argv, "--loads", 5), inputs = option(argc, argv, "--inputs", 50),
              tokens = option(argc, argv, "--tokens", 30), threads = option(argc, argv, "--threads", 2);
    ComputeDevice::setThreads(threads);
    const std::string folder = PretrainedEncoder::locate(PretrainedEncoder::kDefaultId, textOption(argc, argv, "--data-dir", ""));
    std::vector<double> loadTimes;
    for (int i = 0; i < loads; ++i) {
        const auto start = std::chrono::steady_clock::now();
        PretrainedEncoder e(folder);
        loadTimes.push_back(secondsSince(start));
    }
    const PretrainedEncoder encoder(folder);
    // Sentences of common words, each exactly `tokens` pieces with [CLS] and [SEP].
    const std::vector<std::string> words = {"the", "movie", "was", "not", "good", "but", "acting", "great", "plot",
                                            "and", "a", "bit", "slow", "I", "liked", "it", "very", "much", "story", "bad"};
    std::mt19937 rng(7);
    std::vector<std::string> sentences;
    for (int i = 0; i < inputs; ++i) {
        std::string s;
        for (int w = 0; w < tokens - 2; ++w)
            s += (w ? " " : "") + words[rng() % words.size()];
        sentences.push_back(s);
    }
    (void)encoder.explain(sentences.front()); // warm-up: first-call allocations
    std::vector<double> explainTimes;
    std::size_t maps = 0, pieces = 0;
    for (const auto& s : sentences) {
        const auto start = std::chrono::steady_clock::now();
        const auto e = encoder.explain(s);
        explainTimes.push_back(secondsSince(start));
        maps = e.attention.maps.size();
        pieces = e.tokens.size();
    }
    std::printf("all-MiniLM-L6-v2 (%lld parameters) from %s; %d threads\n",
                static_cast<long long>(encoder.parameterCount()), folder.c_str(), threads);
    std::printf("open (config, vocabulary, weights): first %.0f ms, median of the %d later %.0f ms (goal <= 1000 ms)\n",
                1000.0 * loadTimes.front(), loads - 1,
                1000.0 * median(std::vector<double>(loadTimes.begin() + (loads > 1 ? 1 : 0), loadTimes.end())));
    std::printf("explain a %zu-piece sentence, %zu maps + rollout: median %.1f ms, slowest %.1f ms over %d sentences "
                "(goal <= 100 ms)\n",
                pieces, maps, 1000.0 * median(explainTimes), 1000.0 * *std::max_element(explainTimes.begin(), explainTimes.end()),
                inputs);
    return 0;
}
