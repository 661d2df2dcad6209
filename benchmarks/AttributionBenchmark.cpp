// The explanation methods' goals: on 2 CPU cores, a 2-layer ESSAN of d_model 300 (4 heads, RPR)
// explaining a 30-token sentence: integrated gradients with 32 steps in at most 100 ms, every other method in
// at most 50 ms (median over --inputs sentences); and faithfulness over a split's sentences, all methods,
// reported as seconds per 100 sentences (the goal: SST-fine's 1,101 dev sentences in at most 60 s).
//
//   attnlab-bench-attribution [--inputs 50] [--tokens 30] [--faithfulness 100] [--threads 2]
//
// The model is trained for 20 steps on the synthetic sentences (weights kept, as the explorer's benchmark
// does): the time of a method does not depend on what the weights learned, only on their shapes.
#include "core/data/DatasetCatalog.h"
#include "core/platform/CancelToken.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/FaithfulnessEvaluator.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Trainer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdlib.h>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

int option(int argc, char** argv, const char* name, int fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return std::atoi(argv[i + 1]);
    return fallback;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    const int inputs = option(argc, argv, "--inputs", 50), tokens = option(argc, argv, "--tokens", 30),
              sentences = option(argc, argv, "--faithfulness", 100), threads = option(argc, argv, "--threads", 2);
    char folder[] = "/tmp/attnlab-bench-attribution-XXXXXX"; // no Qt here: the fuzzing build has none
    if (!mkdtemp(folder))
        return std::perror("mkdtemp"), 1;
    struct Cleanup {
        std::string path;
        ~Cleanup() { std::filesystem::remove_all(path); }
    } cleanup{folder};
    RunStore store(std::string(folder) + "/runs.sqlite");
    TrainConfig c;
    c.model.model = "essan";
    c.model.position = "rpr";
    c.model.dModel = 300;
    c.model.layers = 2;
    c.model.heads = 4;
    c.steps = 20;
    c.evalEvery = 20;
    c.device = "cpu";
    c.threads = threads;
    c.checkpointDir = RunStore::checkpointFolderOf(store.path());
    const auto data = DatasetCatalog::load("synthetic-sentiment", DatasetOptions{});
    std::int64_t runId = 0;
    {
        StoreObserver observer(store);
        CancelToken cancel;
        Trainer(c).run(data, observer, cancel);
        runId = observer.runId();
    }
    const ModelExplainer explainer(*ModelExplainer::choose(store.checkpoints(runId), store.run(runId)->bestStep));

    std::vector<std::string> words;
    for (const auto& e : data.train)
        for (const auto& t : e.tokens)
            if (std::find(words.begin(), words.end(), t) == words.end())
                words.push_back(t);
    std::mt19937 rng(7);
    std::vector<std::vector<std::string>> texts;
    for (int i = 0; i < inputs; ++i) {
        std::vector<std::string> text;
        for (int t = 0; t < tokens; ++t)
            text.push_back(words[rng() % words.size()]);
        texts.push_back(text);
    }
    explainer.attributeTokens(texts.front(), {}); // warm-up: first-call allocations
    std::map<std::string, std::vector<double>> ms;
    double worstGap = 0;
    for (const auto& text : texts)
        for (const auto& a : explainer.attributeTokens(text, {})) {
            ms[a.method].push_back(1000.0 * a.seconds);
            if (a.method == "ig")
                worstGap = std::max(worstGap, a.completenessGap / std::max(1e-12, std::abs(a.probability - a.baselineProbability)));
        }
    std::printf("ESSAN d_model 300, 2 layers x 4 heads, RPR; %d-token sentences, %d of them; %d threads\n", tokens, inputs, threads);
    std::printf("%-12s %10s %10s %8s\n", "method", "median ms", "max ms", "goal ms");
    for (const auto& m : AttributionOptions::methods()) {
        const auto& v = ms[m];
        std::printf("%-12s %10.1f %10.1f %8d\n", m.c_str(), median(v), *std::max_element(v.begin(), v.end()), m == "ig" ? 100 : 50);
    }
    std::printf("ig: the largest completeness gap, relative to p(x) - p(baseline): %.4f%%\n", 100.0 * worstGap);

    std::vector<TextExample> dev(data.dev.begin(), data.dev.begin() + std::min<std::size_t>(data.dev.size(), sentences));
    CancelToken never;
    const auto start = std::chrono::steady_clock::now();
    const auto report = FaithfulnessEvaluator(explainer).evaluate(dev, "dev", {}, never);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double length = 0;
    for (const auto& e : dev)
        length += static_cast<double>(e.tokens.size()) / static_cast<double>(dev.size());
    std::printf("faithfulness, all methods, %d synthetic dev sentences (mean %.1f tokens): %.2f s (%.2f s per 100)\n",
                report.examples, length, seconds, 100.0 * seconds / report.examples);
    return 0;
}
