// The compare view with 100 runs overlaid (the analyst workspace's goal: drawn in at most 300 ms):
// time from setRuns(ids) to every panel replotted, with and without the display decimation, and the
// store read on its own. Builds a store of R runs x N logged steps (train loss, epoch, wall seconds at
// every step; dev accuracy every 100 steps; one test point), or uses the one given with --db.
//
//   attnlab-bench-compare [--db FILE] [--runs 100] [--points 10000] [--repeats 5] [--keep FILE]
//   attnlab-bench-compare --db FILE --screenshot PNG [--group-by KEY,...] [--smoothing W]
//                                       (the view at 1200 x 700 over the store's runs, no timing)
#include "core/platform/ProcessInfo.h"
#include "core/store/RunStore.h"
#include "ui/analysis/ComparePanel.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/RunCurves.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QTemporaryDir>
#include <QtWidgets/QApplication>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

struct Stats {
    double median = 0.0, max = 0.0;
};

// Process CPU milliseconds: on a shared machine (other builds running) wall time says more about the
// neighbours than about this code, and all of this work is on the one GUI thread.
double cpuMs() { return attnlab::ProcessInfo::cpuSeconds() * 1e3; }

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.back()};
}

QList<qint64> fill(RunStore& store, int runs, int points)
{
    QList<qint64> ids;
    for (int r = 0; r < runs; ++r) {
        RunInfo info;
        info.config.dataset = "synthetic-sentiment";
        info.config.model.model = r % 2 ? "lstm" : "ssan";
        info.config.model.position = r % 2 ? "none" : "rpr";
        info.config.seed = static_cast<std::uint64_t>(r);
        const auto id = store.beginRun(info);
        std::vector<MetricPoint> m;
        m.reserve(static_cast<std::size_t>(points) * 3 + points / 100 + 1);
        double noise = 0.0;
        for (int step = 1; step <= points; ++step) {
            noise = 0.9 * noise + 0.1 * std::sin(step * 12.9898 + r * 78.233) * 43758.5453;
            noise -= std::floor(noise);
            m.push_back({step, "train", "epoch", step / 500.0});
            m.push_back({step, "train", "wall_seconds", step * 0.01});
            m.push_back({step, "train", "loss", 1.0 / (1.0 + step * 0.001 * (1 + r % 7)) + 0.1 * noise});
            if (step % 100 == 0)
                m.push_back({step, "dev", "accuracy", 0.5 + 0.4 * (1.0 - std::exp(-step / 3000.0)) + 0.02 * noise});
        }
        m.push_back({points, "test", "accuracy", 0.85 + 0.001 * r});
        store.appendMetrics(id, m);
        RunSummary s;
        s.status = RunStatus::Completed;
        s.steps = points;
        store.finishRun(id, s);
        ids.append(id);
    }
    return ids;
}

} // namespace

int main(int argc, char** argv)
{
    std::string db, keep, screenshot, groupBy;
    double smoothing = 0.0;
    int runs = 100, points = 10000, repeats = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--db") db = argv[i + 1];
        else if (flag == "--keep") keep = argv[i + 1];
        else if (flag == "--screenshot") screenshot = argv[i + 1];
        else if (flag == "--group-by") groupBy = argv[i + 1];
        else if (flag == "--smoothing") smoothing = std::atof(argv[i + 1]);
        else if (flag == "--runs") runs = std::atoi(argv[i + 1]);
        else if (flag == "--points") points = std::atoi(argv[i + 1]);
        else if (flag == "--repeats") repeats = std::atoi(argv[i + 1]);
        else {
            std::fprintf(stderr, "usage: %s [--db FILE] [--runs 100] [--points 10000] [--repeats 5] [--keep FILE]\n", argv[0]);
            return 2;
        }
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    QTemporaryDir dir;
    QList<qint64> ids;
    std::unique_ptr<RunStore> store;
    if (db.empty()) {
        db = keep.empty() ? dir.filePath("compare.sqlite").toStdString() : keep;
        store = std::make_unique<RunStore>(db);
        QElapsedTimer t;
        t.start();
        ids = fill(*store, runs, points);
        std::printf("built %s: %d runs x %d steps in %.1f s\n", db.c_str(), runs, points, t.elapsed() / 1000.0);
    } else {
        store = std::make_unique<RunStore>(db);
        for (const RunRecord& r : store->listRuns())
            if (ids.size() < runs)
                ids.append(r.id);
        std::printf("using %s: %lld runs\n", db.c_str(), static_cast<long long>(ids.size()));
    }

    if (!screenshot.empty()) {
        ui::CompareView view;
        view.resize(1200, 700);
        view.setStore(store.get());
        view.setRuns(ids);
        if (!groupBy.empty())
            view.setGroupBy(QString::fromStdString(groupBy).split(QLatin1Char(',')));
        view.setSmoothing(smoothing);
        view.show();
        for (int i = 0; i < 5; ++i)
            QCoreApplication::processEvents();
        for (ui::ComparePanel* panel : view.panels())
            panel->replot();
        const bool saved = view.grab().save(QString::fromStdString(screenshot));
        std::printf("%s %s\n", saved ? "saved" : "could not save", screenshot.c_str());
        return saved ? 0 : 1;
    }

    std::vector<std::int64_t> plainIds(ids.begin(), ids.end());
    std::vector<double> lossReads;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer t;
        t.start();
        const auto loss = store->curves(plainIds, "train", "loss");
        lossReads.push_back(t.nsecsElapsed() / 1e6);
    }
    std::printf("store read of the train loss alone (RunStore::curves): median %.0f ms\n", stats(lossReads).median);

    std::vector<double> reads;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer t;
        t.start();
        const auto curves = ui::RunCurves::load(*store, ids);
        reads.push_back(t.nsecsElapsed() / 1e6);
    }
    const Stats read = stats(reads);
    std::printf("store read (RunCurves::load, %lld runs): median %.0f ms, max %.0f ms\n",
                static_cast<long long>(ids.size()), read.median, read.max);
    std::fflush(stdout);

    ui::CompareView view;
    view.resize(1200, 700);
    view.show();
    view.setStore(store.get());
    QCoreApplication::processEvents();
    // "Plotted" is the moment every panel has replotted while shown at its laid-out size: setRuns
    // creates the panels, and the layout gives them their size in the event loop that follows.
    const std::pair<ui::DisplaySampling, const char*> modes[] = {
        {ui::DisplaySampling::PixelColumns, "ours, min/max per pixel column"},
        {ui::DisplaySampling::QCustomPlotAdaptive, "QCustomPlot's adaptive sampling"},
        {ui::DisplaySampling::None, "every point drawn"}};
    for (const auto& [sampling, name] : modes) {
        view.setSampling(sampling);
        std::vector<double> times, builds, replots, cpu;
        int replotsPerSetRuns = 0;
        std::size_t drawn = 0;
        for (int i = 0; i < repeats; ++i) {
            view.setRuns({});
            QCoreApplication::processEvents();
            QElapsedTimer t;
            t.start();
            const double cpuStart = cpuMs();
            view.setRuns(ids);
            builds.push_back(t.nsecsElapsed() / 1e6);
            // The layout shows the new panels and sizes them; each replots then (resize), and any
            // queued replot runs: a few rounds of the event loop leave nothing pending.
            int replotCount = 0;
            for (ui::ComparePanel* panel : view.panels())
                QObject::connect(panel, &QCustomPlot::afterReplot, panel, [&replotCount] { ++replotCount; });
            for (int k = 0; k < 3; ++k)
                QCoreApplication::processEvents();
            replotsPerSetRuns = replotCount;
            times.push_back(t.nsecsElapsed() / 1e6);
            cpu.push_back(cpuMs() - cpuStart);
            // A replot at the laid-out size on its own (what a zoom or a smoothing change costs to draw).
            QElapsedTimer r;
            r.start();
            for (ui::ComparePanel* panel : view.panels())
                panel->replot(QCustomPlot::rpImmediateRefresh);
            replots.push_back(r.nsecsElapsed() / 1e6);
            drawn = 0;
            for (ui::ComparePanel* panel : view.panels())
                for (int g = 0; g < panel->graphCount(); ++g)
                    drawn += static_cast<std::size_t>(panel->graph(g)->data()->size());
        }
        const Stats s = stats(times);
        std::printf("setRuns(%lld ids) -> every panel laid out and replotted, %s: median %.0f ms, max %.0f ms "
                    "(%d repeats; %zu points handed to QCustomPlot)\n    of which setRuns (read, series, decimation) "
                    "median %.0f ms; a replot of all panels alone: median %.0f ms; CPU time of the whole: median %.0f ms, max %.0f ms;"
                    " %d panel replots after setRuns\n",
                    static_cast<long long>(ids.size()), name, s.median, s.max, repeats, drawn,
                    stats(builds).median, stats(replots).median, stats(cpu).median, stats(cpu).max, replotsPerSetRuns);
        std::fflush(stdout);
    }
    return 0;
}
