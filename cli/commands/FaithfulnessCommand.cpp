#include "cli/commands/FaithfulnessCommand.h"

#include "cli/CliFlags.h"
#include "cli/TextCells.h"
#include "core/platform/InterruptGuard.h"
#include "cli/TerminalProgress.h"
#include "cli/commands/StoredModelSplit.h"
#include "core/data/DatasetCatalog.h"
#include "core/training/ComputeDevice.h"
#include "core/training/FaithfulnessEvaluator.h"
#include "core/training/ModelExplainer.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace attnlab {
namespace {

void printReport(std::ostream& out, const FaithfulnessReport& r)
{
    out << r.examples << " " << r.split << " sentences" << (r.complete ? "" : " (stopped early: not stored)") << " in "
        << fixedCell(r.seconds, 1) << " s; deletion = tokens replaced by <unk> in the method's order, most important first\n";
    out << paddedCell("method", 12) << paddedCell("AOPC del", 10) << paddedCell("ins area", 10) << paddedCell("tau attn", 10)
        << paddedCell("p at 0%  20%   40%   60%   80%   100% deleted", 46) << "seconds\n";
    for (const auto& m : r.methods) {
        out << paddedCell(m.method, 12);
        if (m.sentences == 0) {
            out << "-  " << m.note << "\n";
            continue;
        }
        out << paddedCell(fixedCell(m.deletionAopc, 3), 10) << paddedCell(fixedCell(m.insertionArea, 3), 10)
            << paddedCell(fixedCell(m.tauWithAttention, 3), 10);
        std::string curve;
        for (int i = 0; i < FaithfulnessReport::kPoints; i += 2)
            curve += fixedCell(m.deletion[static_cast<std::size_t>(i)], 3) + " ";
        out << paddedCell(curve, 46) << fixedCell(m.seconds, 2) << "\n";
    }
    if (r.contrastSentences > 0) { // the built-in grammar: the clause after the last "but" decides the label
        out << "Known answer: the top token in the deciding clause (after the last \"but\"), of " << r.contrastSentences
            << " sentences with a contrast:";
        for (const auto& m : r.methods)
            if (m.sentences > 0)
                out << " " << m.method << " " << fixedCell(100.0 * m.clauseHits / r.contrastSentences, 1) << "%";
        out << " (the clause's mean share of the tokens: " << fixedCell(100.0 * r.clauseChance, 1) << "%)\n";
    }
    out << "AOPC del: mean drop of p(predicted) over 0%..100% deleted (higher = the method's top tokens carry the "
           "prediction); ins area: mean p as tokens are given back (higher = better); tau attn: Kendall's tau-b with "
           "attention's ranking, per sentence, averaged\n";
}

} // namespace

int FaithfulnessCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {"--run", "--split", "--methods", "--limit", "--ig-steps", "--seed", "--db"},
                         {"--json", "--recompute"});
    const std::int64_t runId = runIdFrom(flags.required("--run"));
    const SplitChoice choice = SplitChoice::from(flags);
    const std::string& split = choice.split;
    FaithfulnessEvaluator::Options options;
    try {
        options.methods = AttributionOptions::parseList(flags.text("--methods", ""));
    } catch (const std::invalid_argument& error) {
        throw CliUsageError(std::string("--methods: ") + error.what());
    }
    options.attribution.igSteps = static_cast<int>(flags.integer("--ig-steps", options.attribution.igSteps));
    if (const std::string problem = options.attribution.validate(); !problem.empty())
        throw CliUsageError("--ig-steps" + problem.substr(problem.find(':')));
    const long long seed = flags.integer("--seed", 1);
    if (seed < 0)
        throw CliUsageError("--seed: 0 or more, got " + flags.text("--seed", ""));
    options.seed = static_cast<std::uint64_t>(seed);
    const long long limit = choice.limit;
    const bool json = flags.has("--json");
    // Options other than the defaults measure something else than the stored report: computed again.
    const bool defaults = !flags.has("--methods") && !flags.has("--ig-steps") && !flags.has("--seed") && limit == 0;

    RunStore store(flags.text("--db", RunStore::defaultPath()));
    existingRun(store, runId); // an unknown run is refused before anything else is read
    if (defaults && !flags.has("--recompute"))
        if (const auto stored = store.analysis(runId, "faithfulness", split)) {
            const auto report = FaithfulnessReport::fromJson(stored->json);
            err_ << "faithfulness: stored " << stored->createdAt << " (--recompute measures it again)\n";
            if (json)
                out_ << stored->json << "\n";
            else
                printReport(out_, report);
            return 0;
        }

    ComputeDevice::setThreads(0); // every core, as training uses
    const auto model = storedModel(store, runId, "faithfulness");
    const ModelExplainer& explainer = *model;
    const std::vector<TextExample> examples = choice.examplesOf(explainer);

    CancelToken cancel;
    const InterruptGuard guard(cancel);
    TerminalProgress progress(err_);
    const auto report = FaithfulnessEvaluator(explainer).evaluate(examples, split, options, cancel,
                                                                  sentenceProgress(progress, "faithfulness"));
    if (report.complete && defaults)
        store.putAnalysis(runId, "faithfulness", split, report.toJson());
    if (json)
        out_ << report.toJson() << "\n";
    else
        printReport(out_, report);
    return report.complete ? 0 : 130;
}

} // namespace attnlab
