#include "cli/commands/PermutationCommand.h"

#include "cli/CliFlags.h"
#include "core/platform/InterruptGuard.h"
#include "cli/TerminalProgress.h"
#include "cli/TextCells.h"
#include "cli/commands/StoredModelSplit.h"
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
    const SplitChoice choice = SplitChoice::from(flags);
    AttentionPermutationTest::Options options;
    const long long permutations = flags.integer("--permutations", options.permutations);
    if (permutations < 1 || permutations > 1000)
        throw CliUsageError("--permutations: between 1 and 1000, got " + flags.text("--permutations", ""));
    options.permutations = static_cast<int>(permutations);
    const long long seed = flags.integer("--seed", 1);
    if (seed < 0)
        throw CliUsageError("--seed: 0 or more, got " + flags.text("--seed", ""));
    options.seed = static_cast<std::uint64_t>(seed);

    RunStore store(flags.text("--db", RunStore::defaultPath()));
    ComputeDevice::setThreads(0);
    const auto explainer = storedModel(store, runId, "the permutation test");
    const std::vector<TextExample> examples = choice.examplesOf(*explainer);

    CancelToken cancel;
    const InterruptGuard guard(cancel);
    TerminalProgress progress(err_);
    const auto report = AttentionPermutationTest::measure(*explainer, examples, choice.split, options, cancel,
                                                          sentenceProgress(progress, "permutation"));
    if (flags.has("--json"))
        out_ << report.toJson() << "\n";
    else
        printReport(out_, report);
    return report.complete ? 0 : 130;
}

} // namespace attnlab
