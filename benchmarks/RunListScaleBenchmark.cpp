// The run list at scale: a store of 10,000 runs and 10,000,000 metric points (5 datasets x 8 models x
// 250 seeds, mixed completed/failed/cancelled, summary_json as RunSummary::toJson writes it, ~1,000 curve
// points per run), then, each repeated, the time from opening the store to the run list filled and
// painted (what MainWindow::refreshRuns does at start), a refresh of the filled list (what happens while
// a training writes), and typing a filter word. Prints median and max per step.
//
//   attnlab-bench-runlist [--db FILE] [--runs-per-config 250] [--points 1000] [--repeat 7] [--regenerate]
//                         [--no-refresh]
//
// A step that takes more than 5 s is measured once, not repeated (the old QTableWidget's refresh of a shown
// list took minutes); the table says how often each was measured.
//
// The store is generated once (raw SQLite in big transactions, the schema made by RunStore itself) and
// reused on the next start when it holds the expected number of runs. Runs offscreen unless a display
// platform is given (QT_QPA_PLATFORM).
#include "core/config/TrainConfig.h"
#include "core/results/RunSummary.h"
#include "core/platform/UtcTime.h"
#include "core/store/RunStore.h"
#include "ui/runs/RunListPanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTableView>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace attnlab;

struct Options {
    std::string db = (std::filesystem::temp_directory_path() / "attnlab-runlist-bench.sqlite").string();
    int runsPerConfig = 250;
    int points = 1000;
    int repeat = 7;
    bool regenerate = false;
    bool refresh = true; // --no-refresh: the old QTableWidget needed more than 20 minutes for one
};

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::invalid_argument(a + " needs a value");
            return argv[++i];
        };
        if (a == "--db") o.db = value();
        else if (a == "--runs-per-config") o.runsPerConfig = std::stoi(value());
        else if (a == "--points") o.points = std::stoi(value());
        else if (a == "--repeat") o.repeat = std::max(5, std::stoi(value()));
        else if (a == "--regenerate") o.regenerate = true;
        else if (a == "--no-refresh") o.refresh = false;
        else throw std::invalid_argument("unknown option " + a);
    }
    return o;
}

class Raw {
public:
    explicit Raw(const std::string& path)
    {
        if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK)
            throw std::runtime_error("cannot open " + path);
    }
    ~Raw() { sqlite3_close(db_); }
    void exec(const std::string& sql)
    {
        char* error = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            const std::string message = error ? error : "?";
            sqlite3_free(error);
            throw std::runtime_error(message + " in " + sql);
        }
    }
    long long scalar(const std::string& sql)
    {
        sqlite3_stmt* s = nullptr;
        long long v = -1;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
            v = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        return v;
    }
    sqlite3_stmt* prepare(const std::string& sql)
    {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error(std::string(sqlite3_errmsg(db_)) + " in " + sql);
        return s;
    }
    void step(sqlite3_stmt* s)
    {
        if (sqlite3_step(s) != SQLITE_DONE)
            throw std::runtime_error(sqlite3_errmsg(db_));
        sqlite3_reset(s);
    }

private:
    sqlite3* db_ = nullptr;
};

struct Config {
    std::string dataset, model, position;
    bool regression;
};

// 5 datasets x 8 configurations: three sentiment sets with eight text models, two series sets with the
// four time-series baselines and ESSAN with four position techniques.
std::vector<Config> configurations()
{
    std::vector<Config> out;
    const std::vector<std::pair<std::string, std::string>> text = {
        {"ssan", "rpr"}, {"essan", "rpr"}, {"transformer", "sinusoidal"}, {"lstm", "none"},
        {"bilstm", "none"}, {"cnn", "none"}, {"bow", "none"}, {"rnn-attention", "none"}};
    const std::vector<std::pair<std::string, std::string>> series = {
        {"essan", "rpr"}, {"essan", "none"}, {"essan", "sinusoidal"}, {"essan", "learned"},
        {"narx", "none"}, {"encdec", "none"}, {"attn-rnn", "none"}, {"darnn", "none"}};
    for (const char* d : {"sst-binary", "sst-fine", "opener"})
        for (const auto& [m, p] : text)
            out.push_back({d, m, p, false});
    for (const char* d : {"sml2010", "synthetic-lag"})
        for (const auto& [m, p] : series)
            out.push_back({d, m, p, true});
    return out;
}

std::string iso(std::time_t t) { return attnlab::UtcTime::format(t, "%Y-%m-%dT%H:%M:%SZ"); }

void generate(const Options& o)
{
    std::filesystem::remove(o.db);
    std::filesystem::remove(o.db + "-wal");
    std::filesystem::remove(o.db + "-shm");
    { RunStore schema(o.db); } // the tables, indexes and user_version exactly as the store makes them
    Raw raw(o.db);
    raw.exec("PRAGMA synchronous = OFF");
    std::mt19937_64 random(20261122);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    sqlite3_stmt* run = raw.prepare(
        "INSERT INTO runs (name, status, started_at, finished_at, config_json, seed, dataset, model, position,"
        " app_version, git_hash, torch_version, device, host, pid, params, steps, seconds, best_dev, best_step,"
        " test_accuracy, message, uuid, group_key, tags, notes, environment_json, summary_json)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    sqlite3_stmt* metric = raw.prepare("INSERT INTO metrics (run_id, step, split, name, value) VALUES (?,?,?,?,?)");
    auto text = [](sqlite3_stmt* s, int i, const std::string& v) { sqlite3_bind_text(s, i, v.c_str(), -1, SQLITE_TRANSIENT); };
    const std::vector<Config> configs = configurations();
    const std::time_t start = 1767225600; // 2026-01-01
    long long id = 0;
    raw.exec("BEGIN");
    for (int seed = 0; seed < o.runsPerConfig; ++seed) {
        for (const Config& c : configs) {
            ++id;
            TrainConfig config;
            config.dataset = c.dataset;
            config.model.model = c.model;
            config.model.position = c.position;
            config.seed = static_cast<std::uint64_t>(seed);
            config.steps = 4 * (o.points / 5); // train loss + accuracy every 2 steps, dev every 8: ~points
            config.logEvery = 2;
            config.evalEvery = 8;
            const std::string configJson = config.toJson();
            const double draw = unit(random);
            RunSummary s;
            s.status = draw < 0.88 ? RunStatus::Completed : draw < 0.96 ? RunStatus::Failed : RunStatus::Cancelled;
            s.steps = s.status == RunStatus::Completed ? config.steps : static_cast<int>(config.steps * unit(random));
            s.seconds = 30.0 + 600.0 * unit(random);
            s.parameters = 100000 + static_cast<std::int64_t>(900000 * unit(random));
            s.device = "cpu (2 threads)";
            s.regression = c.regression;
            if (s.status == RunStatus::Failed)
                s.message = "loss became NaN at step " + std::to_string(s.steps);
            if (s.status == RunStatus::Completed) {
                s.bestStep = 8 * (1 + static_cast<int>((config.steps / 8 - 1) * unit(random)));
                if (c.regression) {
                    s.bestDevRmse = 0.5 + unit(random);
                    s.testRmse = s.bestDevRmse * (0.9 + 0.2 * unit(random));
                    s.testMae = 0.8 * s.testRmse;
                    s.testMape = 2.0 + 3.0 * unit(random);
                } else {
                    s.bestDevAccuracy = 0.4 + 0.5 * unit(random);
                    s.testAccuracy = s.bestDevAccuracy - 0.05 * unit(random);
                    s.testMacroF1 = s.testAccuracy - 0.02;
                    s.testConfusion = {{400, 28}, {31, 362}};
                }
                s.stoppedEarly = unit(random) < 0.2;
            }
            const std::string environment =
                R"js({"app_version":"0.9.0","cpu_cores":2,"cpu_model":"Intel Xeon Processor (Icelake)","dataset":")js" +
                c.dataset + R"js(","device":"cpu (2 threads)","git_hash":"e219a0b","host":"lab","os":"Debian GNU/Linux 12","torch_version":"2.1.0"})js";
            const std::time_t began = start + static_cast<std::time_t>(id) * 97;
            char uuid[33];
            std::snprintf(uuid, sizeof uuid, "%016llx%016llx", static_cast<unsigned long long>(random()),
                          static_cast<unsigned long long>(id));
            int i = 1;
            text(run, i++, c.model + (c.position != "none" ? "+" + c.position : "") + " on " + c.dataset);
            text(run, i++, toString(s.status));
            text(run, i++, iso(began));
            text(run, i++, iso(began + static_cast<std::time_t>(s.seconds)));
            text(run, i++, configJson);
            sqlite3_bind_int64(run, i++, seed);
            text(run, i++, c.dataset);
            text(run, i++, c.model);
            text(run, i++, c.position);
            text(run, i++, "0.9.0");
            text(run, i++, "e219a0b");
            text(run, i++, "2.1.0");
            text(run, i++, s.device);
            text(run, i++, "lab");
            sqlite3_bind_int64(run, i++, 0);
            sqlite3_bind_int64(run, i++, s.parameters);
            sqlite3_bind_int(run, i++, s.steps);
            sqlite3_bind_double(run, i++, s.seconds);
            sqlite3_bind_double(run, i++, s.bestDevAccuracy);
            sqlite3_bind_int(run, i++, s.bestStep);
            sqlite3_bind_double(run, i++, s.testAccuracy);
            text(run, i++, s.message);
            text(run, i++, uuid);
            text(run, i++, RunStore::groupKeyOf(configJson));
            text(run, i++, seed % 50 == 0 ? R"(["sweep","baseline"])" : "[]");
            text(run, i++, seed % 100 == 0 ? "first seed of the sweep" : "");
            text(run, i++, environment);
            text(run, i++, s.toJson());
            raw.step(run);
            // The curves: train loss and accuracy (or RMSE) every 2 steps, dev every 8.
            const char* second = c.regression ? "rmse" : "accuracy";
            int written = 0;
            for (int step = 2; step <= config.steps && written < o.points; step += 2) {
                const double progress = static_cast<double>(step) / config.steps;
                auto add = [&](const char* split, const char* name, double value) {
                    sqlite3_bind_int64(metric, 1, id);
                    sqlite3_bind_int(metric, 2, step);
                    sqlite3_bind_text(metric, 3, split, -1, SQLITE_STATIC);
                    sqlite3_bind_text(metric, 4, name, -1, SQLITE_STATIC);
                    sqlite3_bind_double(metric, 5, value);
                    raw.step(metric);
                    ++written;
                };
                add("train", "loss", 1.5 * std::exp(-3 * progress) + 0.1 * unit(random));
                add("train", second, 0.5 + 0.4 * progress);
                if (step % 8 == 0) {
                    add("dev", "loss", 1.6 * std::exp(-2.5 * progress) + 0.1 * unit(random));
                    add("dev", second, 0.45 + 0.4 * progress);
                }
            }
            if (id % 200 == 0) {
                raw.exec("COMMIT");
                raw.exec("BEGIN");
                std::fprintf(stderr, "\rgenerating: %lld runs", id);
            }
        }
    }
    raw.exec("COMMIT");
    sqlite3_finalize(run);
    sqlite3_finalize(metric);
    raw.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    std::fprintf(stderr, "\n");
}

// Wall time (what a user waits) and this thread's CPU time (what the step costs, whatever else the
// machine is doing: the 2-core VM was shared with other builds while these were taken).
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Timing {
    std::vector<double> ms, cpu;
    void add(double v, double cpuMs) { ms.push_back(v); cpu.push_back(cpuMs); }
    static double medianOf(std::vector<double> v)
    {
        std::sort(v.begin(), v.end());
        const std::size_t n = v.size();
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
    double cpuMedian() const { return medianOf(cpu); }
    double median() const
    {
        std::vector<double> v = ms;
        std::sort(v.begin(), v.end());
        const std::size_t n = v.size();
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
    double max() const { return *std::max_element(ms.begin(), ms.end()); }
};

double msSince(const QElapsedTimer& t) { return static_cast<double>(t.nsecsElapsed()) / 1e6; }

// A wall-clock timer that also reads the thread's CPU clock.
struct Stopwatch {
    QElapsedTimer wall;
    double cpu0 = 0;
    Stopwatch() { restart(); }
    void restart()
    {
        wall.start();
        cpu0 = threadCpuMs();
    }
    void into(Timing& t) const { t.add(msSince(wall), threadCpuMs() - cpu0); }
};

constexpr double kTooSlowMs = 5000.0;

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    Options o;
    try {
        o = parse(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "attnlab-bench-runlist: " << e.what() << "\n";
        return 2;
    }
    QApplication app(argc, argv);
    const long long expectedRuns = static_cast<long long>(configurations().size()) * o.runsPerConfig;
    long long haveRuns = -1;
    if (!o.regenerate && std::filesystem::exists(o.db))
        haveRuns = Raw(o.db).scalar("SELECT COUNT(*) FROM runs");
    if (haveRuns != expectedRuns) {
        QElapsedTimer t;
        t.start();
        generate(o);
        std::cout << "generated " << o.db << " in " << msSince(t) / 1000.0 << " s" << std::endl;
    }
    {
        Raw raw(o.db);
        std::cout << "store: " << raw.scalar("SELECT COUNT(*) FROM runs") << " runs, "
                  << raw.scalar("SELECT MAX(rowid) FROM metrics") << " metric points, "
                  << std::filesystem::file_size(o.db) / (1024 * 1024) << " MiB, schema "
                  << raw.scalar("PRAGMA user_version") << std::endl;
    }

    {
        // A file from an older schema is migrated by its first open: timed once, apart from the rest.
        QElapsedTimer t;
        t.start();
        RunStore first(o.db);
        std::cout << "first open (migrating the file if it is older): " << msSince(t) << " ms" << std::endl;
    }
    std::map<std::string, Timing> timings;
    const std::vector<std::string> steps = {"open store", "listRuns", "aggregates", "setRuns (empty panel)",
                                            "setAggregates", "show + paint", "= store opened -> list shown",
                                            "refresh: listRuns + setRuns + repeats (filled)"};
    int listed = 0;
    for (int r = 0; r < o.repeat; ++r) {
        Stopwatch total, t;
        RunStore store(o.db);
        t.into(timings["open store"]);
        t.restart();
        std::vector<RunRecord> runs = store.listRuns();
        t.into(timings["listRuns"]);
        t.restart();
        const auto groups = RunStore::aggregatesOf(runs); // as MainWindow::refreshRuns does
        t.into(timings["aggregates"]);
        ui::RunListPanel panel;
        panel.resize(1300, 320);
        t.restart();
        panel.setRuns(runs);
        t.into(timings["setRuns (empty panel)"]);
        t.restart();
        panel.setAggregates(groups);
        t.into(timings["setAggregates"]);
        t.restart();
        panel.show();
        panel.repaint();
        QApplication::processEvents();
        t.into(timings["show + paint"]);
        total.into(timings["= store opened -> list shown"]);
        listed = panel.runCount();

        // A refresh while a training writes: the same list read again into the filled panel.
        Timing& refresh = timings["refresh: listRuns + setRuns + repeats (filled)"];
        if (o.refresh && (refresh.ms.empty() || refresh.max() < kTooSlowMs)) {
            t.restart();
            const std::vector<RunRecord> again = store.listRuns();
            panel.setRuns(again);
            panel.setAggregates(RunStore::aggregatesOf(again));
            panel.repaint();
            QApplication::processEvents();
            t.into(refresh);
        }
        std::cerr << "repetition " << r + 1 << ": list shown after " << timings["= store opened -> list shown"].ms.back()
                  << " ms\n";
    }

    // Typing filter words into a filled, shown list.
    RunStore store(o.db);
    ui::RunListPanel panel;
    panel.resize(1300, 320);
    panel.setRuns(store.listRuns());
    panel.show();
    QApplication::processEvents();
    const std::vector<std::string> words = {"lstm", "lstm failed", "sml2010 essan rpr", "sweep", "zzz",
                                            "model=lstm status=failed", "dataset=sst-fine test>=40 -position:none", ""};
    std::map<std::string, int> visible;
    for (int r = 0; r < o.repeat; ++r) {
        for (const auto& w : words) {
            Timing& timing = timings["filter '" + w + "'"];
            if (!timing.ms.empty() && timing.max() >= kTooSlowMs)
                continue;
            Stopwatch t;
            panel.setFilterText(QString::fromStdString(w));
            visible[w] = panel.visibleRunCount();
            panel.repaint();
            QApplication::processEvents();
            t.into(timing);
        }
    }

    std::printf("\n%d runs listed, %d repetitions (median / max, ms)\n\n", listed, o.repeat);
    std::printf("| step | median ms | max ms | CPU ms (median) | n |\n| --- | ---: | ---: | ---: | ---: |\n");
    for (const auto& name : steps)
        if (!timings[name].ms.empty())
            std::printf("| %s | %.1f | %.1f | %.1f | %zu |\n", name.c_str(), timings[name].median(), timings[name].max(),
                        timings[name].cpuMedian(), timings[name].ms.size());
    for (const auto& w : words) {
        const std::string name = "filter '" + w + "'";
        std::printf("| %s (%d shown) | %.1f | %.1f | %.1f | %zu |\n", name.c_str(), visible[w], timings[name].median(),
                    timings[name].max(), timings[name].cpuMedian(), timings[name].ms.size());
    }
    return 0;
}
