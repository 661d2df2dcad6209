#include "cli/commands/PermutationCommand.h"

#include "cli/CliFlags.h"
#include "cli/InterruptGuard.h"
#include "cli/TerminalProgress.h"
#include "cli/TextCells.h"
#include "cli/commands/RunIds.h"
#include "core/data/DatasetCatalog.h"
#include "core/training/AttentionPermutationTest.h"
#include "core/training/ComputeDevice.h"
#include "core/training/ModelExplainer.h"

#include <chrono>
#include <ostream>
#include <stdexcept>

namespace attnlab {
namespace {

void printReport(std::ostream& out, const PermutationReport& r)
{
    out << r.tested << " of " << r.examples << " " << r.split << " sentences tested" << (r.complete ? "" : " (stopped early)")
        << ", " << r.permutations << " permutations each, " << fixedCell(r.seconds, 1) << " s\n";
    if (r.tested == 0) {
        out << "nothing to permute" << (r.note.empty() ? std::string() : ": " + r.note) << "\n";
        return;
    }
    out << "median TVD " << fixedCell(r.medianTvd, 4) << " (quartiles " << fixedCell(r.lowerQuartileTvd, 4) << " - "
        << fixedCell(r.upperQuartileTvd, 4) << ", mean " << fixedCell(r.meanTvd, 4) << "); "
        << fixedCell(100.0 * r.shareBelow005, 1) << "% of sentences below 0.05; prediction changed in "
        << fixedCell(100.0 * r.shareFlipped, 1) << "%\n";
    const char* bins[] = {"< 0.25", "0.25 - 0.5", ">= 0.5"};
    out << "by the largest attention weight:";
    for (std::size_t b = 0; b < 3; ++b)
        out << "  " << bins[b] << ": " << r.sentencesByPeak[b] << " sentences, median TVD "
            << (r.sentencesByPeak[b] > 0 ? fixedCell(r.medianTvdByPeak[b], 4) : std::string("-"));
    out << "\nTVD: total variation distance between the class probabilities with every attention distribution "
           "permuted over the tokens and without (0 = unchanged, 1 = disjoint); per sentence the median over its "
           "permutations\n";
}

} // namespace

int PermutationCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {"--run", "--split", "--permutations", "--limit", "--seed", "--db"}, {"--json"});
    const std::int64_t runId = runIdFrom(flags.required("--run"));
    const std::string split = flags.text("--split", "dev");
    if (split != "dev" && split != "test")
        throw CliUsageError("--split: dev or test, got '" + split + "'");
    AttentionPermutationTest::Options options;
    const long long permutations = flags.integer("--permutations", options.permutations);
    if (permutations < 1 || permutations > 1000)
        throw CliUsageError("--permutations: between 1 and 1000, got " + flags.text("--permutations", ""));
    options.permutations = static_cast<int>(permutations);
    const long long seed = flags.integer("--seed", 1);
    if (seed < 0)
        throw CliUsageError("--seed: 0 or more, got " + flags.text("--seed", ""));
    options.seed = static_cast<std::uint64_t>(seed);
    const long long limit = flags.integer("--limit", 0);
    if (limit < 0)
        throw CliUsageError("--limit: the number of sentences (0 = all), got " + flags.text("--limit", ""));

    RunStore store(flags.text("--db", RunStore::defaultPath()));
    const RunRecord run = existingRun(store, runId);
    const auto chosen = ModelExplainer::choose(store.checkpoints(runId), run.bestStep);
    if (!chosen)
        throw std::runtime_error("run " + std::to_string(runId) + " kept no weights (trained with --no-checkpoint, or "
                                 "it did not complete): the permutation test needs its model; train it again");
    ComputeDevice::setThreads(0);
    const ModelExplainer explainer(*chosen);
    const TrainConfig& config = explainer.config();
    const TextDataset data = DatasetCatalog::load(config.dataset, config.datasetOptions());
    std::vector<TextExample> examples = split == "dev" ? data.dev : data.test;
    if (limit > 0 && examples.size() > static_cast<std::size_t>(limit))
        examples.resize(static_cast<std::size_t>(limit));

    CancelToken cancel;
    const InterruptGuard guard(cancel);
    TerminalProgress progress(err_);
    auto last = std::chrono::steady_clock::now() - std::chrono::hours(1);
    const auto report = AttentionPermutationTest::measure(explainer, examples, split, options, cancel, [&](int done, int total) {
        const auto now = std::chrono::steady_clock::now();
        if (done < total && now - last < std::chrono::seconds(1))
            return;
        last = now;
        progress.report("progress", "permutation: " + std::to_string(done) + " / " + std::to_string(total) + " sentences");
    });
    if (flags.has("--json"))
        out_ << report.toJson() << "\n";
    else
        printReport(out_, report);
    return report.complete ? 0 : 130;
}

} // namespace attnlab
