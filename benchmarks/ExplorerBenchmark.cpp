// The attention explorer's goals: a typed sentence -> probabilities and every map on screen in
// at most 50 ms on 2 CPU cores for a 2-layer, 4-head, d_model 300 ESSAN on a 40-token input (median and
// max over 100 inputs), and a run with 200 stored snapshots opened in at most 300 ms.
//
//   attnlab-bench-explorer [--inputs 100] [--tokens 40] [--snapshots 200] [--threads 0]
//
// 1. Trains that ESSAN for a few steps on the synthetic sentences (weights kept), then times, per input of
//    --tokens words drawn from its vocabulary: the engine alone (ModelExplainer::explain), and the window's
//    path — the Explorer's Enter key to the explained() signal (worker thread, thumbnails, heatmap) plus
//    one full repaint of the view; then to the attributed() signal (the explanation methods and their deletion
//    curves, computed after the maps are on screen).
//    Then the Step by step tab (one head's attention computed step by step, layer 2 head 1, query 0): the engine
//    alone (ModelExplainer::stepByStep), Enter to the steps on screen (after the explanation, which comes first),
//    and another query chosen to its steps on screen. Goal: 50 ms.
// 2. Stores a run with --snapshots snapshots of that size (8 maps of 40 x 40 + pooling + prediction) and a
//    dev curve, and times ExplorerView::setRun to its first map drawn (the checkpoint's loading is on a
//    worker thread and not part of it: the view is usable before).
#include "benchmarks/TimingStats.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/data/DatasetCatalog.h"
#include "core/platform/CancelToken.h"
#include "core/training/ComputeDevice.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Trainer.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/ExplorerView.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QTemporaryDir>
#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTabWidget>

#include <algorithm>
#include <cstdio>
#include <cstring>
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

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const int inputs = option(argc, argv, "--inputs", 100), tokens = option(argc, argv, "--tokens", 40),
              snapshots = option(argc, argv, "--snapshots", 200), threads = option(argc, argv, "--threads", 0);
    QTemporaryDir dir;
    RunStore store(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());

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
    const auto record = *store.run(runId);
    const CheckpointRef checkpoint = *ModelExplainer::choose(store.checkpoints(runId), record.bestStep);
    QElapsedTimer clock;
    clock.start();
    const ModelExplainer explainer(checkpoint);
    const double loadMs = clock.nsecsElapsed() / 1e6;

    // Inputs of `tokens` words from the training sentences' vocabulary, each different.
    std::vector<std::string> words;
    for (const auto& e : data.train)
        for (const auto& t : e.tokens)
            if (std::find(words.begin(), words.end(), t) == words.end())
                words.push_back(t);
    std::mt19937 rng(7);
    std::vector<std::string> texts;
    for (int i = 0; i < inputs; ++i) {
        std::string text;
        for (int t = 0; t < tokens; ++t)
            text += (t ? " " : "") + words[rng() % words.size()];
        texts.push_back(text);
    }
    explainer.explain(texts.front()); // warm-up: first-call allocations
    std::vector<double> engine;
    for (const auto& text : texts) {
        clock.restart();
        const auto e = explainer.explain(text);
        engine.push_back(clock.nsecsElapsed() / 1e6);
        if (e.attention.maps.size() != 8 || e.tokens.size() != static_cast<std::size_t>(tokens))
            return std::fprintf(stderr, "unexpected explanation: %zu maps, %zu tokens\n", e.attention.maps.size(), e.tokens.size()), 1;
    }

    ui::ExplorerView view;
    view.setStore(&store);
    view.resize(1200, 800);
    view.show();
    view.setRun(runId);
    auto* input = view.findChild<QLineEdit*>(QStringLiteral("explorerInput"));
    while (!view.canExplain() || view.isBusy())
        app.processEvents(QEventLoop::WaitForMoreEvents);
    std::vector<double> screen, attributed;
    for (int i = -1; i < inputs; ++i) { // -1: a warm-up round
        const std::string& text = texts[static_cast<std::size_t>(std::max(i, 0))];
        QEventLoop wait;
        QObject::connect(&view, &ui::ExplorerView::explained, &wait, &QEventLoop::quit);
        clock.restart();
        input->setText(QString::fromStdString(text) + (i < 0 ? QStringLiteral(" x") : QString()));
        emit input->returnPressed(); // Enter: no debounce
        wait.exec();
        view.repaint(); // the grid, the chart and the heatmap drawn
        const double maps = clock.nsecsElapsed() / 1e6;
        QEventLoop methods; // then the explanation methods' rows and deletion curves, before the next text
        QObject::connect(&view, &ui::ExplorerView::attributed, &methods, &QEventLoop::quit);
        methods.exec();
        view.repaint();
        if (i >= 0) {
            screen.push_back(maps);
            attributed.push_back(clock.nsecsElapsed() / 1e6);
        }
    }

    // The Step by step tab on the same inputs.
    std::vector<double> stepsEngine, stepsTyped, stepsQuery;
    for (const auto& text : texts) {
        clock.restart();
        const auto st = explainer.stepByStep(text, 1, 0, 0);
        stepsEngine.push_back(clock.nsecsElapsed() / 1e6);
        if (st.weights.size() != static_cast<std::size_t>(tokens))
            return std::fprintf(stderr, "unexpected steps: %zu keys\n", st.weights.size()), 1;
    }
    view.findChild<QTabWidget*>(QStringLiteral("explorerLowerTabs"))->setCurrentWidget(view.findChild<QWidget*>(QStringLiteral("explorerStepsScroll")));
    ui::AttentionStepsView* steps = view.attentionSteps();
    steps->showHead(1, 0);
    auto* query = steps->findChild<QComboBox*>(QStringLiteral("stepsQuery"));
    auto waitForSteps = [&] {
        QEventLoop wait;
        QObject::connect(steps, &ui::AttentionStepsView::updated, &wait, &QEventLoop::quit);
        wait.exec();
        steps->repaint();
    };
    waitForSteps();
    for (int i = -1; i < inputs; ++i) {
        const std::string& text = texts[static_cast<std::size_t>(std::max(i, 0))];
        query->setCurrentIndex(0);
        clock.restart();
        input->setText(QString::fromStdString(text) + (i < 0 ? QStringLiteral(" y") : QString()));
        emit input->returnPressed();
        waitForSteps();
        const double typed = clock.nsecsElapsed() / 1e6;
        while (view.isBusy()) // the explanation methods finish before another query is asked
            app.processEvents(QEventLoop::WaitForMoreEvents);
        const int chosen = 1 + (i + 1) % (tokens - 1);
        query->setCurrentIndex(chosen);
        clock.restart();
        emit query->activated(chosen);
        waitForSteps();
        const double queried = clock.nsecsElapsed() / 1e6;
        if (!steps->shown() || steps->shown()->query != chosen || steps->shown()->tokens.size() != static_cast<std::size_t>(tokens + (i < 0)))
            return std::fprintf(stderr, "the steps on screen are not the input's\n"), 1;
        if (i >= 0) {
            stepsTyped.push_back(typed);
            stepsQuery.push_back(queried);
        }
    }

    // A run with many stored snapshots: what opening it in the explorer costs.
    RunInfo info;
    info.config = c;
    const auto big = store.beginRun(info);
    auto probe = explainer.explain(texts.front()).attention;
    probe.classes = data.classNames;
    probe.probabilities = {0.1f, 0.2f, 0.3f, 0.2f, 0.2f};
    std::vector<MetricPoint> dev;
    for (int s = 1; s <= snapshots; ++s) {
        probe.step = s * 50;
        store.appendAttention(big, probe);
        dev.push_back({s * 50, "dev", "accuracy", 0.3 + 0.001 * s});
    }
    store.appendMetrics(big, dev);
    RunSummary done;
    done.status = RunStatus::Completed;
    done.steps = snapshots * 50;
    store.finishRun(big, done);
    std::vector<double> open;
    for (int round = 0; round < 6; ++round) {
        view.setRun(runId); // away and back: setRun(big) reads it afresh
        while (view.isBusy())
            app.processEvents(QEventLoop::WaitForMoreEvents);
        clock.restart();
        view.setRun(big);
        view.repaint();
        if (round > 0)
            open.push_back(clock.nsecsElapsed() / 1e6);
        if (view.timelineSteps().size() != static_cast<std::size_t>(snapshots))
            return std::fprintf(stderr, "the timeline has %zu steps\n", view.timelineSteps().size()), 1;
    }

    const bench::TimingStats e = bench::TimingStats::of(engine), s = bench::TimingStats::of(screen), o = bench::TimingStats::of(open);
    std::printf("ESSAN d_model 300, 2 layers x 4 heads, %d-token inputs, %d inputs, %s\n", tokens, inputs,
                ComputeDevice::describe("cpu").c_str());
    std::printf("checkpoint opened (sha256 + load): %.1f ms\n", loadMs);
    std::printf("engine: explain()                    median %.1f ms  p90 %.1f  max %.1f\n", e.median, e.p90, e.max);
    const bench::TimingStats a = bench::TimingStats::of(attributed);
    std::printf("window: Enter -> explained + repaint median %.1f ms  p90 %.1f  max %.1f\n", s.median, s.p90, s.max);
    std::printf("window: Enter -> explanation methods median %.1f ms  p90 %.1f  max %.1f (all default methods, deletion curves)\n", a.median, a.p90, a.max);
    const bench::TimingStats se = bench::TimingStats::of(stepsEngine), st = bench::TimingStats::of(stepsTyped),
                             sq = bench::TimingStats::of(stepsQuery);
    std::printf("engine: stepByStep() (layer 2, head 1) median %.1f ms  p90 %.1f  max %.1f\n", se.median, se.p90, se.max);
    std::printf("window: Enter -> steps on screen     median %.1f ms  p90 %.1f  max %.1f\n", st.median, st.p90, st.max);
    std::printf("window: another query -> its steps   median %.1f ms  p90 %.1f  max %.1f\n", sq.median, sq.p90, sq.max);
    std::printf("open a run with %d snapshots: setRun + repaint, median %.1f ms  max %.1f (5 rounds)\n", snapshots,
                o.median, o.max);
    return 0;
}
