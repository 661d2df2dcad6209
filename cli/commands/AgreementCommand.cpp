#include "cli/commands/AgreementCommand.h"

#include "cli/CliFlags.h"
#include "core/platform/InterruptGuard.h"
#include "cli/TerminalProgress.h"
#include "cli/TextCells.h"
#include "cli/commands/StoredModelSplit.h"
#include "core/data/DatasetCatalog.h"
#include "core/training/ComputeDevice.h"
#include "core/training/ModelExplainer.h"
#include "core/training/SeedAgreement.h"

#include <chrono>
#include <memory>
#include <ostream>
#include <stdexcept>

namespace attnlab {
namespace {

void printReport(std::ostream& out, const SeedAgreementReport& r)
{
    out << r.examples << " " << r.split << " sentences, " << r.runs.size() << " runs" << (r.complete ? "" : " (stopped early)")
        << " in " << fixedCell(r.seconds, 1) << " s; accuracy on them:";
    for (std::size_t i = 0; i < r.runs.size(); ++i)
        out << " #" << r.runs[i] << " " << fixedCell(100.0 * r.accuracies[i], 1) << "%";
    out << "\n" << paddedCell("method", 12) << paddedCell("JS across seeds", 17) << paddedCell("JS to attention", 17)
        << "JS to uniform\n";
    for (const auto& m : r.methods) {
        out << paddedCell(m.method, 12);
        if (m.sentences == 0) {
            out << "-  " << m.note << "\n";
            continue;
        }
        out << paddedCell(fixedCell(m.acrossSeeds, 3), 17)
            << paddedCell(m.method == "attention" ? std::string("-") : fixedCell(m.toAttention, 3), 17)
            << fixedCell(m.toUniform, 3) << "\n";
    }
    out << "Jensen-Shannon distance (base 2; 0 = the same distribution over the tokens, 1 = disjoint) between |scores| "
           "read as distributions, averaged over sentences: across seeds = over pairs of runs; to attention = each "
           "run's method against the same run's attention\n";
}

} // namespace

int AgreementCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {"--runs", "--split", "--methods", "--limit", "--ig-steps", "--db"}, {"--json"});
    std::vector<std::int64_t> ids;
    for (const auto& text : flags.list("--runs"))
        ids.push_back(runIdFrom(text));
    if (ids.size() < 2)
        throw CliUsageError("--runs: at least two run ids, e.g. --runs 3,4,5 (runs of one model, different seeds)");
    const SplitChoice choice = SplitChoice::from(flags);
    SeedAgreement::Options options;
    try {
        options.methods = AttributionOptions::parseList(flags.text("--methods", ""));
    } catch (const std::invalid_argument& error) {
        throw CliUsageError(std::string("--methods: ") + error.what());
    }
    options.attribution.igSteps = static_cast<int>(flags.integer("--ig-steps", options.attribution.igSteps));
    if (const std::string problem = options.attribution.validate(); !problem.empty())
        throw CliUsageError("--ig-steps" + problem.substr(problem.find(':')));

    RunStore store(flags.text("--db", RunStore::defaultPath()));
    std::vector<std::unique_ptr<ModelExplainer>> explainers;
    std::vector<const ModelExplainer*> pointers;
    for (const auto id : ids) {
        explainers.push_back(storedModel(store, id, "agreement"));
        pointers.push_back(explainers.back().get());
        const auto& first = pointers.front()->config();
        const auto& config = pointers.back()->config();
        if (config.dataset != first.dataset)
            throw CliUsageError("--runs: run " + std::to_string(id) + " is on " + config.dataset + ", run " +
                                std::to_string(ids.front()) + " on " + first.dataset + ": compare runs of one dataset");
    }
    ComputeDevice::setThreads(0);
    const std::vector<TextExample> examples = choice.examplesOf(*pointers.front());

    CancelToken cancel;
    const InterruptGuard guard(cancel);
    TerminalProgress progress(err_);
    auto report = SeedAgreement::measure(pointers, examples, choice.split, options, cancel, sentenceProgress(progress, "agreement"));
    report.runs.assign(ids.begin(), ids.end());
    if (flags.has("--json"))
        out_ << report.toJson() << "\n";
    else
        printReport(out_, report);
    return report.complete ? 0 : 130;
}

} // namespace attnlab
