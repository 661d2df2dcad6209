// typed-sentence goal: in the window, a typed source -> its translation and every map on screen in at
// most 50 ms (greedy) on the CPU while nothing trains. Times the alignment explorer's path - translate() on its
// worker thread (Translator: tokenise, encode, decode, every attention), then the large alignment, the decoding
// steps' table, the step's row and the beam tab filled, and one full repaint - against the engine's
// Translator::translate alone, per dev sentence, median / p90 / max. Models at bentrevett/pytorch-seq2seq's sizes
// (Bahdanau: 256-d embeddings, a 512-unit GRU; a 3+3-layer Transformer, d_model 256, 8 heads, FFN 512), trained
// --steps steps on --dataset (default the built-in dates task, whose translations have their right length after a
// few hundred steps; an untrained model's run to the length cap, which measures decoding, not the window), or a
// stored run (--db FILE --run N).
//
//   attnlab-bench-alignment [--dataset synthetic-dates] [--steps 300] [--inputs 50] [--threads 2] [--data-dir DIR]
//                           [--db FILE --run N]
#include "benchmarks/TimingStats.h"
#include "benchmarks/CommandLineOption.h"
#include "benchmarks/ReferenceTranslationRun.h"
#include "core/data/DatasetCatalog.h"
#include "core/store/RunStore.h"
#include "core/training/ComputeDevice.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Translator.h"
#include "ui/explorer/AlignmentExplorer.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QTemporaryDir>
#include <QtWidgets/QApplication>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace attnlab;
using attnlab::bench::option;

namespace {

// Engine and window, one dev sentence at a time, greedy.
int measure(QApplication& app, RunStore& store, std::int64_t runId, const std::vector<std::string>& sources, const std::string& label)
{
    const auto chosen = ModelExplainer::choose(store.checkpoints(runId), store.run(runId)->bestStep);
    if (!chosen)
        return std::printf("%s: the run kept no weights\n", label.c_str()), 1;
    TranslationDecoding greedy;
    greedy.alternatives = 5; // what the explorer's steps table shows
    std::vector<double> engine;
    double words = 0.0;
    {
        const Translator translator(*chosen);
        translator.translate(sources.front(), greedy); // warm-up: first-call allocations
        for (const auto& s : sources) {
            QElapsedTimer clock;
            clock.start();
            const auto t = translator.translate(s, greedy);
            engine.push_back(clock.nsecsElapsed() / 1e6);
            words += static_cast<double>(t.targetTokens.size()) / static_cast<double>(sources.size());
        }
    }

    ui::AlignmentExplorer explorer;
    explorer.setStore(&store);
    explorer.resize(1280, 720);
    explorer.show();
    explorer.setRun(runId);
    while (!explorer.isReady() || explorer.isBusy())
        app.processEvents(QEventLoop::WaitForMoreEvents);
    std::vector<double> screen;
    for (int i = -1; i < static_cast<int>(sources.size()); ++i) { // -1: a warm-up round
        const std::string& source = sources[static_cast<std::size_t>(std::max(i, 0))];
        QEventLoop wait;
        QObject::connect(&explorer, &ui::AlignmentExplorer::translated, &wait, &QEventLoop::quit);
        QElapsedTimer clock;
        clock.start();
        explorer.translate(QString::fromStdString(source), 1);
        wait.exec();
        explorer.repaint(); // the alignment, the steps' table and row, the beam tab drawn
        if (i >= 0)
            screen.push_back(clock.nsecsElapsed() / 1e6);
    }
    const bench::TimingStats e = bench::TimingStats::of(engine), w = bench::TimingStats::of(screen);
    std::printf("%-28s engine translate()      median %6.1f ms  p90 %6.1f  max %6.1f  (%.1f words out)\n", label.c_str(), e.median,
                e.p90, e.max, words);
    std::printf("%-28s window: typed -> on screen median %6.1f ms  p90 %6.1f  max %6.1f  (goal 50)\n", label.c_str(), w.median,
                w.p90, w.max);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const int inputs = std::stoi(option(argc, argv, "--inputs", "50")), steps = std::stoi(option(argc, argv, "--steps", "300")),
              threads = std::stoi(option(argc, argv, "--threads", "2"));
    DatasetOptions options;
    options.dataDir = option(argc, argv, "--data-dir", "");
    const std::string dataset = option(argc, argv, "--dataset", "synthetic-dates");
    ComputeDevice::setThreads(threads);
    std::printf("attnlab-bench-alignment: %s, %s\n", dataset.c_str(), ComputeDevice::describe("cpu").c_str());

    if (const std::string db = option(argc, argv, "--db", ""); !db.empty()) {
        RunStore trained(db);
        const auto runId = std::stoll(option(argc, argv, "--run", "1"));
        const auto record = trained.run(runId);
        if (!record)
            return std::printf("no run %lld in %s\n", static_cast<long long>(runId), db.c_str()), 1;
        const TranslationDataset data = DatasetCatalog::loadTranslation(record->dataset, options);
        std::vector<std::string> sources;
        for (std::size_t i = 0; i < data.dev.size() && static_cast<int>(i) < inputs; ++i)
            sources.push_back(data.dev[i].sourceText);
        return measure(app, trained, runId, sources, record->model + " (run " + std::to_string(runId) + ")");
    }

    const TranslationDataset data = DatasetCatalog::loadTranslation(dataset, options);
    std::vector<std::string> sources;
    for (std::size_t i = 0; i < data.dev.size() && static_cast<int>(i) < inputs; ++i)
        sources.push_back(data.dev[i].sourceText);
    QTemporaryDir dir;
    RunStore store(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
    for (const std::string model : {"bahdanau", "transformer-seq2seq"}) {
        const std::int64_t runId = bench::trainReferenceRun(store, data, dataset, model, steps, threads, static_cast<std::size_t>(inputs));
        if (const int failed = measure(app, store, runId, sources, model + ", " + std::to_string(steps) + " steps"))
            return failed;
    }
    return 0;
}
