#include "cli/commands/FaithfulnessCommand.h"

#include "cli/CliFlags.h"
#include "cli/TextCells.h"
#include "cli/InterruptGuard.h"
#include "cli/TerminalProgress.h"
#include "cli/commands/RunIds.h"
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
    const std::string split = flags.text("--split", "dev");
    if (split != "dev" && split != "test")
        throw CliUsageError("--split: dev or test, got '" + split + "'");
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
    const long long limit = flags.integer("--limit", 0);
    if (limit < 0)
        throw CliUsageError("--limit: the number of sentences (0 = all), got " + flags.text("--limit", ""));
    const bool json = flags.has("--json");
    // Options other than the defaults measure something else than the stored report: computed again.
    const bool defaults = !flags.has("--methods") && !flags.has("--ig-steps") && !flags.has("--seed") && limit == 0;

    RunStore store(flags.text("--db", RunStore::defaultPath()));
    const RunRecord run = existingRun(store, runId);
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

    const auto chosen = ModelExplainer::choose(store.checkpoints(runId), run.bestStep);
    if (!chosen)
        throw std::runtime_error("run " + std::to_string(runId) + " kept no weights (it was trained with --no-checkpoint, "
                                 "or did not complete): faithfulness needs its model; train it again");
    ComputeDevice::setThreads(0); // every core, as training uses
    const ModelExplainer explainer(*chosen);
    const TrainConfig& config = explainer.config();
    const TextDataset data = DatasetCatalog::load(config.dataset, config.datasetOptions());
    std::vector<TextExample> examples = split == "dev" ? data.dev : data.test;
    if (limit > 0 && examples.size() > static_cast<std::size_t>(limit))
        examples.resize(static_cast<std::size_t>(limit));

    CancelToken cancel;
    const InterruptGuard guard(cancel);
    TerminalProgress progress(err_);
    auto lastReport = std::chrono::steady_clock::now() - std::chrono::hours(1);
    const auto report = FaithfulnessEvaluator(explainer).evaluate(examples, split, options, cancel, [&](int done, int total) {
        const auto now = std::chrono::steady_clock::now();
        if (done < total && now - lastReport < std::chrono::seconds(1))
            return;
        lastReport = now;
        progress.report("progress", "faithfulness: " + std::to_string(done) + " / " + std::to_string(total) + " sentences");
    });
    if (report.complete && defaults)
        store.putAnalysis(runId, "faithfulness", split, report.toJson());
    if (json)
        out_ << report.toJson() << "\n";
    else
        printReport(out_, report);
    return report.complete ? 0 : 130;
}

} // namespace attnlab
