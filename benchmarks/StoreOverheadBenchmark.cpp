// The run store's cost to training (issue 5: at most 2%): the same training, same seed, with and without
// a StoreObserver, alternating, several rounds. Both sides do the same work (dev evaluations, attention
// snapshots); only storing differs. Prints every round and the ratio of the medians.
//
//   attnlab-bench-store [--dataset sst-fine] [--model ssan] [--position rpr] [--d-model 100] [--steps 400]
//                       [--eval-every 100] [--log-every 10] [--rounds 5] [--threads 0]
#include "core/DatasetCatalog.h"
#include "core/RunStore.h"
#include "core/StoreObserver.h"
#include "core/Trainer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

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

    const auto dbPath = std::filesystem::temp_directory_path() / ("attnlab-bench-store-" + std::to_string(getpid()) + ".sqlite");
    std::vector<double> plain, stored;
    std::size_t metricPoints = 0;
    std::cout << "# " << c.model.model << "+" << c.model.position << " d_model " << c.model.dModel << " on " << c.dataset
              << ", " << c.steps << " steps, eval every " << c.evalEvery << ", train metrics every " << c.logEvery
              << "; seconds per training, rounds alternate\nround  without store  with store\n";
    for (int r = 0; r < rounds; ++r) {
        for (int withStore = 0; withStore < 2; ++withStore) {
            CancelToken cancel;
            const auto start = std::chrono::steady_clock::now();
            if (withStore) {
                RunStore store(dbPath.string());
                StoreObserver observer(store);
                Trainer(c).run(dataset, observer, cancel);
                // Counted in: the writer has stored everything when onFinished returns.
                if (r == 0)
                    metricPoints = store.metrics(observer.runId()).size();
            } else {
                TrainingObserver nothing;
                Trainer(c).run(dataset, nothing, cancel);
            }
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            (withStore ? stored : plain).push_back(s);
        }
        std::printf("%5d  %13.3f  %10.3f\n", r + 1, plain.back(), stored.back());
        std::fflush(stdout);
    }
    const double p = median(plain), s = median(stored);
    std::printf("median %12.3f  %10.3f   store overhead %+.2f%% (%zu metric points and %d snapshots per run)\n", p, s,
                100.0 * (s - p) / p, metricPoints, c.steps / std::max(1, c.evalEvery));
    std::filesystem::remove(dbPath);
    std::filesystem::remove(dbPath.string() + "-wal");
    std::filesystem::remove(dbPath.string() + "-shm");
    return 0;
}
