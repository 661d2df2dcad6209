// typed-sentence goal: on the CPU, translating one sentence with every attention included takes at
// most 20 ms greedy and 50 ms with a beam of 5 (Translator::translate: tokenise, encode, decode, and the
// teacher-forced pass that returns every map). Models at bentrevett/pytorch-seq2seq's sizes: Bahdanau with
// 256-d embeddings and a 512-unit GRU, a 3+3-layer Transformer of d_model 256 with 8 heads; trained for --steps
// steps on Multi30k de->en when its files are found (else the built-in dates task), since the time of a
// translation depends on the shapes and on how long the output is, not on how good it is. Median and worst over
// --inputs dev sentences, one at a time.
//
//   attnlab-bench-translate [--inputs 50] [--steps 30] [--threads 2] [--data-dir DIR] [--db FILE --run N]
// --db/--run: a stored, trained translation run's model instead of the two trained here.
#include "benchmarks/CommandLineOption.h"
#include "benchmarks/ReferenceTranslationRun.h"
#include "core/data/DatasetCatalog.h"
#include "core/store/RunStore.h"
#include "core/training/ComputeDevice.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Translator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdlib.h>
#include <string>
#include <vector>

using namespace attnlab;
using attnlab::bench::option;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    const int inputs = std::stoi(option(argc, argv, "--inputs", "50")), steps = std::stoi(option(argc, argv, "--steps", "30")),
              threads = std::stoi(option(argc, argv, "--threads", "2"));
    char folder[] = "/tmp/attnlab-bench-translate-XXXXXX";
    if (!mkdtemp(folder))
        return std::perror("mkdtemp"), 1;
    struct Cleanup {
        std::string path;
        ~Cleanup() { std::filesystem::remove_all(path); }
    } cleanup{folder};
    DatasetOptions options;
    options.dataDir = option(argc, argv, "--data-dir", "");
    std::string dataset = "multi30k";
    TranslationDataset data;
    try {
        data = DatasetCatalog::loadTranslation(dataset, options);
    } catch (const std::exception& e) {
        std::printf("multi30k not found (%s): the built-in dates task instead\n", e.what());
        dataset = "synthetic-dates";
        data = DatasetCatalog::loadTranslation(dataset, options);
    }
    RunStore store(std::string(folder) + "/runs.sqlite");
    const std::string trainedBy = option(argc, argv, "--db", "").empty() ? std::to_string(steps) + " steps of training"
                                                                         : "a stored run's weights (--db)";
    std::printf("%s, %zu training pairs; %s; %d dev sentences one at a time; %d threads\n", dataset.c_str(),
                data.train.size(), trainedBy.c_str(), inputs, threads);
    std::printf("%-22s %-8s %10s %10s %10s %8s\n", "model", "decoding", "median ms", "max ms", "words out", "goal ms");
    auto measure = [&](const std::string& model, const Translator& translator) {
        for (int beam : {1, 5}) {
            TranslationDecoding decoding;
            decoding.beamSize = beam;
            translator.translate(data.dev.front().sourceText, decoding); // warm-up: first-call allocations
            std::vector<double> ms;
            double words = 0;
            for (int i = 0; i < inputs && i < static_cast<int>(data.dev.size()); ++i) {
                const auto start = std::chrono::steady_clock::now();
                const auto t = translator.translate(data.dev[static_cast<std::size_t>(i)].sourceText, decoding);
                ms.push_back(1000.0 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
                words += static_cast<double>(t.targetTokens.size()) / inputs;
            }
            std::printf("%-22s %-8s %10.1f %10.1f %10.1f %8d\n", model.c_str(), beam == 1 ? "greedy" : "beam 5", median(ms),
                        *std::max_element(ms.begin(), ms.end()), words, beam == 1 ? 20 : 50);
        }
    };
    // A trained run instead (--db FILE --run N): its own model, with the lengths a trained model's translations have.
    if (const std::string db = option(argc, argv, "--db", ""); !db.empty()) {
        RunStore trained(db);
        const auto runId = std::stoll(option(argc, argv, "--run", "1"));
        const auto chosen = ModelExplainer::choose(trained.checkpoints(runId), trained.run(runId)->bestStep);
        if (!chosen)
            return std::printf("run %lld kept no weights\n", static_cast<long long>(runId)), 1;
        ComputeDevice::setThreads(threads);
        const Translator translator(*chosen);
        measure(trained.run(runId)->model + " (run " + std::to_string(runId) + ")", translator);
        return 0;
    }
    for (const std::string model : {"bahdanau", "transformer-seq2seq"}) {
        const std::int64_t runId = bench::trainReferenceRun(store, data, dataset, model, steps, threads, static_cast<std::size_t>(inputs));
        const auto chosen = ModelExplainer::choose(store.checkpoints(runId), store.run(runId)->bestStep);
        if (!chosen)
            return std::printf("%s: the run kept no weights\n", model.c_str()), 1;
        const Translator translator(*chosen);
        measure(model, translator);
    }
    return 0;
}
