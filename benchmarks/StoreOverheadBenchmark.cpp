// The run store's cost to training (at most 2%): the same training, same seed, with and without
// a StoreObserver, alternating, several rounds. Both sides do the same work (dev evaluations, attention
// snapshots); only storing differs. Rounds alternate in ABBA order. Prints every round, the ratio of the medians, and — because a 2%
// difference in wall time is within this VM's round-to-round noise — the time the training thread spent
// inside the store's callbacks, measured directly, and the process CPU time of each variant (the writer
// thread's work included).
//
//   attnlab-bench-store [--dataset sst-fine] [--model ssan] [--position rpr] [--d-model 100] [--steps 400]
//                       [--eval-every 100] [--log-every 10] [--rounds 5] [--threads 0]
#include "core/data/DatasetCatalog.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/Trainer.h"
#include "core/platform/ProcessInfo.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

// Times every call the trainer makes into the wrapped observer: the training thread's share of the cost.
class TimedObserver : public attnlab::TrainingObserver {
public:
    explicit TimedObserver(attnlab::TrainingObserver& inner) : inner_(inner) {}
    void onStarted(const attnlab::RunInfo& e) override { time([&] { inner_.onStarted(e); }); }
    void onProgress(const attnlab::ProgressEvent& e) override { time([&] { inner_.onProgress(e); }); }
    void onMetric(const attnlab::MetricPoint& e) override { time([&] { inner_.onMetric(e); }); }
    void onAttention(const attnlab::AttentionSnapshot& e) override { time([&] { inner_.onAttention(e); }); }
    void onCheckpoint(const attnlab::CheckpointRef& e) override { time([&] { inner_.onCheckpoint(e); }); }
    void onFinished(const attnlab::RunSummary& e) override { time([&] { inner_.onFinished(e); }); }
    double seconds = 0.0;

private:
    template <typename F>
    void time(F&& f)
    {
        const auto start = std::chrono::steady_clock::now();
        f();
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    attnlab::TrainingObserver& inner_;
};

double cpuSeconds() { return attnlab::ProcessInfo::cpuSeconds(); }

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace attnlab;
    std::map<std::string, std::string> a{{"--dataset", "sst-fine"}, {"--model", "ssan"}, {"--position", "rpr"},
                                         {"--d-model", "100"}, {"--steps", "400"}, {"--eval-every", "100"},
                                         {"--log-every", "10"}, {"--rounds", "5"}, {"--threads", "0"}};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!a.count(argv[i])) {
            std::cerr << "unknown option " << argv[i] << "\n";
            return 2;
        }
        a[argv[i]] = argv[i + 1];
    }
    TrainConfig c;
    c.dataset = a["--dataset"];
    c.model.model = a["--model"];
    c.model.position = a["--position"];
    c.model.dModel = std::stoi(a["--d-model"]);
    c.steps = std::stoi(a["--steps"]);
    c.evalEvery = std::stoi(a["--eval-every"]);
    c.logEvery = std::stoi(a["--log-every"]);
    c.threads = std::stoi(a["--threads"]);
    c.device = "cpu";
    const int rounds = std::stoi(a["--rounds"]);
    const TextDataset dataset = DatasetCatalog::load(c.dataset);

    const auto dbPath = std::filesystem::temp_directory_path() / ("attnlab-bench-store-" + std::to_string(attnlab::ProcessInfo::currentId()) + ".sqlite");
    std::vector<double> plain, stored, plainCpu, storedCpu, inCallbacks;
    std::size_t metricPoints = 0;
    std::cout << "# " << c.model.model << "+" << c.model.position << " d_model " << c.model.dModel << " on " << c.dataset
              << ", " << c.steps << " steps, eval every " << c.evalEvery << ", train metrics every " << c.logEvery
              << "; seconds per training, rounds alternate\n"
              << "round  without store  with store   cpu s without  cpu s with  in store callbacks\n";
    for (int r = 0; r < rounds; ++r) {
        // ABBA order: odd rounds run the plain training first, even rounds the stored one, so whatever the
        // first run of a pair pays (or saves) falls on both variants equally.
        for (int k = 0; k < 2; ++k) {
            const int withStore = r % 2 == 0 ? k : 1 - k;
            CancelToken cancel;
            const double cpuStart = cpuSeconds();
            const auto start = std::chrono::steady_clock::now();
            if (withStore) {
                RunStore store(dbPath.string());
                StoreObserver storeObserver(store);
                TimedObserver observer(storeObserver);
                Trainer(c).run(dataset, observer, cancel);
                inCallbacks.push_back(observer.seconds);
                // Counted in: the writer has stored everything when onFinished returns.
                if (r == 0)
                    metricPoints = store.metrics(storeObserver.runId()).size();
            } else {
                TrainingObserver nothing;
                Trainer(c).run(dataset, nothing, cancel);
            }
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            (withStore ? stored : plain).push_back(s);
            (withStore ? storedCpu : plainCpu).push_back(cpuSeconds() - cpuStart);
        }
        std::printf("%5d  %13.3f  %10.3f   %13.3f  %10.3f  %10.4f s (%.2f%%)\n", r + 1, plain.back(), stored.back(),
                    plainCpu.back(), storedCpu.back(), inCallbacks.back(), 100.0 * inCallbacks.back() / stored.back());
        std::fflush(stdout);
    }
    const double p = median(plain), s = median(stored);
    const double pc = median(plainCpu), sc = median(storedCpu), cb = median(inCallbacks);
    std::printf("median %12.3f  %10.3f   %13.3f  %10.3f  %10.4f s\n", p, s, pc, sc, cb);
    std::printf("store overhead: wall %+.2f%%, process cpu %+.2f%%, training thread inside the store's callbacks %.2f%% "
                "of the run (%zu metric points and %d snapshots per run)\n",
                100.0 * (s - p) / p, 100.0 * (sc - pc) / pc, 100.0 * cb / s, metricPoints, c.steps / std::max(1, c.evalEvery));
    std::filesystem::remove(dbPath);
    std::filesystem::remove(dbPath.string() + "-wal");
    std::filesystem::remove(dbPath.string() + "-shm");
    return 0;
}
