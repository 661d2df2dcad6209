#include "cli/commands/GenerateCommand.h"

#include "cli/CliFlags.h"
#include "cli/SamplingFlags.h"
#include "cli/TextCells.h"
#include "cli/commands/RunIds.h"
#include "core/config/SamplingSettings.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/training/TextGenerator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

namespace attnlab {

int GenerateCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {"--run", "--prompt", "--tokens", "--temperature", "--top-k", "--top-p", "--seed", "--alternatives", "--samples", "--beam", "--step", "--db"},
                         {"--json", "--greedy"});
    const std::int64_t runId = runIdFrom(flags.required("--run"));
    const SamplingSettings sampling = SamplingFlags::read(flags);
    const int alternatives = static_cast<int>(flags.integer("--alternatives", 5));
    if (alternatives < 0 || alternatives > 100)
        throw CliUsageError("--alternatives expects 0 to 100 likeliest tokens a step, got " + flags.text("--alternatives", ""));
    const int samples = static_cast<int>(flags.integer("--samples", 1));
    if (samples < 1 || samples > TextGenerator::kMaxSamples)
        throw CliUsageError("--samples expects 1 to " + std::to_string(TextGenerator::kMaxSamples) + " texts, got " + flags.text("--samples", ""));
    const int beam = flags.has("--beam") ? static_cast<int>(flags.integer("--beam", 0)) : 0;
    if (flags.has("--beam")) {
        if (beam < 1 || beam > TextGenerator::kMaxSamples)
            throw CliUsageError("--beam expects 1 to " + std::to_string(TextGenerator::kMaxSamples) + " hypotheses, got " + flags.text("--beam", ""));
        for (const char* drawing : {"--temperature", "--top-k", "--top-p", "--greedy", "--seed", "--samples"})
            if (flags.has(drawing))
                throw CliUsageError(std::string("--beam searches for the likeliest texts and draws nothing: leave out ") + drawing);
    }
    std::optional<int> step;
    if (flags.has("--step"))
        step = static_cast<int>(flags.integer("--step", 0));
    const bool json = flags.has("--json");

    RunStore store(flags.text("--db", RunStore::defaultPath()));
    const RunRecord run = existingRun(store, runId);
    const TextGenerator generator(keptWeights(store, run, step, "write with it"));
    const std::string prompt = flags.text("--prompt", generator.prompt());
    if (flags.has("--prompt") && prompt.empty())
        throw CliUsageError("--prompt is empty: give at least one character to start from");
    std::vector<GeneratedText> texts;
    try {
        texts = beam > 0 ? generator.beamSearch(prompt, sampling.tokens, beam, alternatives, json)
                         : generator.generateSamples(prompt, sampling, samples, alternatives, json);
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        throw CliUsageError(what.rfind("prompt:", 0) == 0 ? "--" + what : what);
    }
    if (json) { // one drawn text: its own object; several: {"samples": [...]} (seed + i); a beam: {"beams": [...]}, best first
        const bool own = beam == 0 && texts.size() == 1;
        nlohmann::json j = own ? nlohmann::json::parse(texts.front().toJson()) : nlohmann::json::object();
        if (!own) {
            const char* key = beam > 0 ? "beams" : "samples";
            j[key] = nlohmann::json::array();
            for (const auto& text : texts)
                j[key].push_back(nlohmann::json::parse(text.toJson()));
        }
        j["run_id"] = runId;
        j["step"] = generator.step();
        j["weights"] = generator.weights();
        j["model"] = generator.config().model.model;
        out_ << j.dump() << "\n";
        return 0;
    }
    double logSum = 0.0;
    std::size_t written = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (i > 0)
            out_ << "---------------\n"; // between samples, as nanoGPT's sample.py separates them
        out_ << texts[i].prompt << texts[i].text << "\n";
        for (const auto& s : texts[i].steps)
            logSum += std::log(std::max(s.probability, 1e-300));
        written += texts[i].steps.size();
    }
    if (beam > 0) { // the hypotheses best first, each with its log-probability
        err_ << "run " << runId << " (" << generator.config().model.model << ", " << generator.weights() << " weights of step "
             << generator.step() << "): beam search of width " << beam << ", " << texts.size() << " texts of " << texts.front().steps.size()
             << " " << generator.unit() << "; log P";
        for (const auto& text : texts)
            err_ << " " << fixedCell(text.logProbability, 2);
        err_ << "\n";
        return 0;
    }
    std::string how = sampling.greedy ? std::string("greedy") : "temperature " + fixedCell(sampling.temperature, 2);
    if (!sampling.greedy && sampling.topK > 0)
        how += ", top-k " + std::to_string(sampling.topK);
    if (!sampling.greedy && sampling.topP < 1.0)
        how += ", top-p " + fixedCell(sampling.topP, 2);
    const std::string seeds = samples == 1 ? "seed " + std::to_string(sampling.seed)
                                           : "seeds " + std::to_string(sampling.seed) + " to " + std::to_string(sampling.seed + static_cast<std::uint64_t>(samples - 1));
    err_ << "run " << runId << " (" << generator.config().model.model << ", " << generator.weights() << " weights of step "
         << generator.step() << "): " << (samples == 1 ? "" : std::to_string(samples) + " samples of ") << texts.front().steps.size() << " "
         << generator.unit() << ", " << how << ", " << seeds << "; mean probability of the chosen tokens "
         << fixedCell(written == 0 ? 0.0 : std::exp(logSum / static_cast<double>(written)), 3) << " (geometric)\n";
    return 0;
}

} // namespace attnlab
