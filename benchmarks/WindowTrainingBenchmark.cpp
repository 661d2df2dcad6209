// The designer's goals, measured, not asserted:
//   1. training throughput from the window vs the headless CLI on the same configuration: window >= 95%;
//   2. the GUI thread never blocked more than 50 ms while one or four runs train (an event-loop latency
//      probe: a 5 ms precise timer, lateness of each tick; max and 99th percentile);
//   3. four runs side by side on the machine's cores: total steps/s vs the same four one after another.
//
//   attnlab-bench-window [--steps 600] [--d-model 64] [--rounds 3] [--threads 0] [--four 1] [--cli PATH]
//                        [--dataset synthetic-sentiment --model ssan --position rpr --eval-every 50]
//   (--four 0 skips parts 2 and 3; another dataset and model measure part 1 for them, e.g. a translation model on
//   synthetic-reverse: its evaluations decode the dev set and refresh the alignment maps)
//
// Throughput is measured without the latency probe (its 200 wake-ups a second are themselves GUI-thread
// work that competes with LibTorch's OpenMP threads); the latency of one run is measured in a run of its
// own, with the probe.
//
// Steps/s are the run's own training time (RunSummary seconds: the trainer's loop with its evaluations and
// store writes), so the CLI's process start and dataset load are left out on both sides. Runs go to a
// temporary store. Use QT_QPA_PLATFORM=offscreen on a machine without a display.
#include "core/config/TrainConfig.h"
#include "core/platform/AllocatorTuning.h"
#include "core/store/RunStore.h"
#include "ui/MainWindow.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/LiveComparisonView.h"
#include "ui/training/TrainingWorker.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QThread>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtWidgets/QApplication>
#include <QtWidgets/QPushButton>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

const char* optionText(int argc, char** argv, const char* name, const char* fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return fallback;
}

int option(int argc, char** argv, const char* name, int fallback) { return std::atoi(optionText(argc, argv, name, std::to_string(fallback).c_str())); }

// Lateness of a 5 ms timer's ticks while something runs: how long the GUI thread could not answer.
class LatencyProbe {
public:
    LatencyProbe()
    {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(5);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const double now = clock_.nsecsElapsed() / 1e6;
            if (last_ >= 0)
                late_.push_back(std::max(0.0, now - last_ - 5.0));
            last_ = now;
        });
    }
    void start()
    {
        late_.clear();
        last_ = -1;
        clock_.start();
        timer_.start();
    }
    void stop() { timer_.stop(); }
    double max() const { return late_.empty() ? 0.0 : *std::max_element(late_.begin(), late_.end()); }
    double p99() const
    {
        if (late_.empty())
            return 0.0;
        std::vector<double> v = late_;
        std::sort(v.begin(), v.end());
        return v[std::min(v.size() - 1, v.size() * 99 / 100)];
    }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    std::vector<double> late_;
    double last_ = -1;
};

int threadsOption = 0;
std::string datasetOption = "synthetic-sentiment";
int evalEveryOption = 50;

TrainConfig config(const std::string& model, const std::string& position, int steps, int dModel)
{
    TrainConfig c;
    c.threads = threadsOption;
    c.dataset = datasetOption;
    c.model.model = model;
    c.model.position = position;
    c.model.dModel = dModel;
    c.steps = steps;
    c.evalEvery = evalEveryOption;
    c.device = "cpu";
    return c;
}

// CPU time the calling thread (the GUI thread here) has used: what the window's own work costs the cores
// that LibTorch's threads would otherwise have.
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double stepsPerSecond(const RunRecord& r) { return r.seconds > 0 ? r.steps / r.seconds : 0.0; }

// A real event loop between checks: processEvents(flags, ms) would spin the GUI thread at 100% and take a
// core from LibTorch's OpenMP threads (measured: 30x slower training), which the app never does.
void waitUntil(const std::function<bool()>& done)
{
    while (!done()) {
        QEventLoop loop;
        QTimer::singleShot(20, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

// The window's run is over: woken by the worker's idle signal, not by polling (a 20 ms poll is 50 GUI-thread
// wake-ups a second that the app itself does not have).
void waitForWindow(ui::MainWindow& window)
{
    auto* worker = window.findChild<ui::TrainingWorker*>();
    while (window.isTraining()) {
        QEventLoop loop;
        QObject::connect(worker, &ui::TrainingWorker::idle, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

} // namespace

int main(int argc, char** argv)
{
    // As the app's main does (app/gui_main.cpp), and the CLI's: without it the window would be measured with
    // glibc's default malloc thresholds against a tuned CLI.
    AllocatorTuning::applyForTraining();
    QApplication app(argc, argv);
    const int steps = option(argc, argv, "--steps", 600);
    const int dModel = option(argc, argv, "--d-model", 64);
    const int rounds = option(argc, argv, "--rounds", 3);
    threadsOption = option(argc, argv, "--threads", 0);
    datasetOption = optionText(argc, argv, "--dataset", "synthetic-sentiment");
    evalEveryOption = option(argc, argv, "--eval-every", 50);
    const std::string model = optionText(argc, argv, "--model", "ssan");
    const std::string position = optionText(argc, argv, "--position", "rpr");
    const QString cli = QString::fromLocal8Bit(optionText(argc, argv, "--cli", ATTNLAB_CLI_PATH));
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    std::printf("attnlab-bench-window: %s + %s on %s, d_model %d, %d steps, eval every %d, %d rounds, threads %d (0 = all), "
                "%d cores\n", model.c_str(), position.c_str(), datasetOption.c_str(), dModel, steps, evalEveryOption, rounds,
                threadsOption, QThread::idealThreadCount());

    // 1. The same configuration from the CLI and from the window, alternating.
    ui::MainWindow window(db);
    window.show();
    auto* setup = window.findChild<ui::SetupPanel*>(QStringLiteral("setupPanel"));
    LatencyProbe probe;
    std::vector<double> cliRates, windowRates, oneMax, oneP99, guiCpu;
    const TrainConfig chosen = config(model, position, steps, dModel);
    for (int round = 0; round < rounds; ++round) {
        QProcess process;
        process.start(cli, {"train", "--dataset", QString::fromStdString(datasetOption), "--model", QString::fromStdString(model),
                            "--position", QString::fromStdString(position), "--d-model", QString::number(dModel), "--steps",
                            QString::number(steps), "--eval-every", QString::number(evalEveryOption), "--device", "cpu",
                            "--threads", QString::number(threadsOption), "--db", db, "--no-checkpoint", "--json"});
        process.waitForFinished(-1);
        RunStore store(db.toStdString());
        cliRates.push_back(stepsPerSecond(store.listRuns().front()));

        setup->setConfig(chosen);
        const double cpuBefore = threadCpuMs();
        window.startTraining();
        waitForWindow(window);
        const RunRecord run = RunStore(db.toStdString()).listRuns().front();
        windowRates.push_back(stepsPerSecond(run));
        guiCpu.push_back(100.0 * (threadCpuMs() - cpuBefore) / (run.seconds * 1e3));
        probe.start(); // the same run again, for the GUI thread's latency
        window.startTraining();
        waitForWindow(window);
        probe.stop();
        oneMax.push_back(probe.max());
        oneP99.push_back(probe.p99());
        std::printf("  round %d: CLI %.1f steps/s, window %.1f steps/s (%.1f%%); GUI thread CPU %.1f%% of a core; "
                    "GUI lateness max %.1f ms, p99 %.1f ms\n",
                    round + 1, cliRates.back(), windowRates.back(), 100.0 * windowRates.back() / cliRates.back(),
                    guiCpu.back(), oneMax.back(), oneP99.back());
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("one run: window/CLI %.1f%% (medians %.1f / %.1f steps/s); GUI lateness max %.1f ms, p99 %.1f ms (worst round)\n",
                100.0 * median(windowRates) / median(cliRates), median(windowRates), median(cliRates),
                *std::max_element(oneMax.begin(), oneMax.end()), *std::max_element(oneP99.begin(), oneP99.end()));
    std::printf("GUI thread CPU during a window run: median %.1f%% of a core\n", median(guiCpu));
    if (option(argc, argv, "--four", 1) == 0 || datasetOption != "synthetic-sentiment")
        return 0; // the four side by side are the classifiers'

    // 2 and 3. Four runs side by side, then the same four one after another with every core.
    const std::vector<TrainConfig> four = {config("ssan", "rpr", steps, dModel), config("ssan", "none", steps, dModel),
                                           config("lstm", "none", steps, dModel), config("cnn", "none", steps, dModel)};
    auto* live = new ui::LiveComparisonView(db);
    live->resize(1280, 720);
    live->show();
    QElapsedTimer wall;
    probe.start();
    wall.start();
    const QString problem = live->start(four);
    if (!problem.isEmpty()) {
        std::fprintf(stderr, "cannot start the comparison: %s\n", qPrintable(problem));
        return 1;
    }
    waitUntil([&] { return !live->isRunning(); });
    const double sideBySide = wall.nsecsElapsed() / 1e9;
    probe.stop();
    std::printf("four side by side: %.1f s wall, %.1f steps/s in all; GUI lateness max %.1f ms, p99 %.1f ms\n", sideBySide,
                4.0 * steps / sideBySide, probe.max(), probe.p99());
    wall.start();
    for (const TrainConfig& c : four) {
        setup->setConfig(c);
        window.startTraining();
        waitForWindow(window);
    }
    const double oneByOne = wall.nsecsElapsed() / 1e9;
    std::printf("four one after another (all cores each): %.1f s wall, %.1f steps/s in all; side by side %.2fx\n",
                oneByOne, 4.0 * steps / oneByOne, oneByOne / sideBySide);
    delete live;
    return 0;
}
