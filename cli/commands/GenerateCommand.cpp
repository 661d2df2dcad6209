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

namespace attnlab {

int GenerateCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {"--run", "--prompt", "--tokens", "--temperature", "--top-k", "--top-p", "--seed", "--alternatives", "--step", "--db"},
                         {"--json", "--greedy"});
    const std::int64_t runId = runIdFrom(flags.required("--run"));
    const SamplingSettings sampling = SamplingFlags::read(flags);
    const int alternatives = static_cast<int>(flags.integer("--alternatives", 5));
    if (alternatives < 0 || alternatives > 100)
        throw CliUsageError("--alternatives expects 0 to 100 likeliest tokens a step, got " + flags.text("--alternatives", ""));
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
    GeneratedText text;
    try {
        text = generator.generate(prompt, sampling, alternatives, json);
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        throw CliUsageError(what.rfind("prompt:", 0) == 0 ? "--" + what : what);
    }
    if (json) {
        auto j = nlohmann::json::parse(text.toJson());
        j["run_id"] = runId;
        j["step"] = generator.step();
        j["weights"] = generator.weights();
        j["model"] = generator.config().model.model;
        out_ << j.dump() << "\n";
        return 0;
    }
    out_ << text.prompt << text.text << "\n";
    std::string how = sampling.greedy ? std::string("greedy") : "temperature " + fixedCell(sampling.temperature, 2);
    if (!sampling.greedy && sampling.topK > 0)
        how += ", top-k " + std::to_string(sampling.topK);
    if (!sampling.greedy && sampling.topP < 1.0)
        how += ", top-p " + fixedCell(sampling.topP, 2);
    double logSum = 0.0;
    for (const auto& s : text.steps)
        logSum += std::log(std::max(s.probability, 1e-300));
    err_ << "run " << runId << " (" << generator.config().model.model << ", " << generator.weights() << " weights of step "
         << generator.step() << "): " << text.steps.size() << " " << generator.unit() << ", " << how << ", seed " << sampling.seed
         << "; mean probability of the chosen tokens " << fixedCell(text.steps.empty() ? 0.0 : std::exp(logSum / static_cast<double>(text.steps.size())), 3)
         << " (geometric)\n";
    return 0;
}

} // namespace attnlab
