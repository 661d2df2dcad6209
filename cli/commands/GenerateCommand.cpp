#include "cli/commands/GenerateCommand.h"

#include "cli/CliFlags.h"
#include "cli/PretrainedLlmFlags.h"
#include "cli/SamplingFlags.h"
#include "cli/TextCells.h"
#include "cli/commands/RunIds.h"
#include "core/config/SamplingSettings.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/training/PretrainedLanguageModel.h"
#include "core/training/TextGenerator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace attnlab {
namespace {

// "greedy", or "temperature 0.80, top-k 20, top-p 0.90"
std::string describeDrawing(const SamplingSettings& sampling)
{
    std::string how = sampling.greedy ? std::string("greedy") : "temperature " + fixedCell(sampling.temperature, 2);
    if (!sampling.greedy && sampling.topK > 0)
        how += ", top-k " + std::to_string(sampling.topK);
    if (!sampling.greedy && sampling.topP < 1.0)
        how += ", top-p " + fixedCell(sampling.topP, 2);
    return how;
}

int alternativesFrom(const CliFlags& flags)
{
    const int alternatives = static_cast<int>(std::clamp<long long>(flags.integer("--alternatives", 5), -1, 101));
    if (alternatives < 0 || alternatives > 100)
        throw CliUsageError("--alternatives expects 0 to 100 likeliest tokens a step, got " +
                            flags.text("--alternatives", ""));
    return alternatives;
}

// The geometric mean of the chosen tokens' probabilities.
double meanProbability(const std::vector<GeneratedText>& texts)
{
    double logSum = 0.0;
    std::size_t written = 0;
    for (const auto& text : texts) {
        for (const auto& s : text.steps)
            logSum += std::log(std::max(s.probability, 1e-300));
        written += text.steps.size();
    }
    return written == 0 ? 0.0 : std::exp(logSum / static_cast<double>(written));
}

} // namespace

// The pretrained language model writes on from the prompt (or, with --chat, replies to it as an instruction).
int GenerateCommand::runPretrained(const CliFlags& flags)
{
    if (flags.has("--run"))
        throw CliUsageError(
            "--run and --pretrained do not go together: write with a stored run or with the pretrained model");
    for (const char* flag : {"--samples", "--beam"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) +
                                " goes with a stored run (--run N); the pretrained model writes one text a call");
    for (const char* flag : {"--step", "--db"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) +
                                " does not go with --pretrained: the pretrained model is not a run");
    const std::string pretrained = flags.required("--pretrained");
    if (!PretrainedLlmFlags::namesLanguageModel(pretrained))
        throw CliUsageError("--pretrained " + pretrained + ": generate writes with a language model (" +
                            PretrainedLanguageModel::kDefaultId + ", " + PretrainedLlmFlags::kShortName +
                            " or a .gguf file), not an encoder");
    const std::string prompt = flags.required("--prompt");
    const SamplingSettings sampling = SamplingFlags::read(flags);
    const int alternatives = alternativesFrom(flags);
    const bool chat = flags.has("--chat"), json = flags.has("--json");

    const auto model = PretrainedLlmFlags::open(flags);
    const HeadSelection ablate = PretrainedLlmFlags::ablation(flags, *model);
    GeneratedText text;
    try {
        model->tokenize(prompt); // the prompt's own mistakes, where they are in it (not in the chat template)
        // The attention of every piece written (270 rows each) is left out: explain --json on the text gives the maps.
        text = model->generate(chat ? model->chatPrompt(prompt) : prompt, sampling, alternatives, false, ablate);
    } catch (const std::invalid_argument& e) {
        PretrainedLlmFlags::rethrowInFlagTerms(e, {{"text", "--prompt"}, {"tokens", "--tokens"}});
    }
    const std::string reply = chat ? text.text.substr(0, text.text.find("<|im_end|>")) : text.text;
    if (json) {
        auto j = nlohmann::json::parse(text.toJson());
        j["model"] = nlohmann::json::parse(PretrainedLlmFlags::modelJson(*model));
        j.update(nlohmann::json::parse(PretrainedLlmFlags::ablationJson(ablate)));
        if (chat) {
            j["instruction"] = prompt;
            j["reply"] = reply;
        }
        out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    out_ << (chat ? reply : text.prompt + text.text) << "\n";
    if (!ablate.empty())
        err_ << PretrainedLlmFlags::describeAblation(ablate) << "\n";
    const std::string name = model->config().name.empty() ? model->path() : model->config().name;
    err_ << name << " (pretrained, " << model->deviceName() << "): " << text.steps.size() << " pieces"
         << (chat ? ", the reply cut at the end of its turn" : "") << ", " << describeDrawing(sampling) << ", seed "
         << sampling.seed << "; mean probability of the chosen pieces " << fixedCell(meanProbability({text}), 3)
         << " (geometric); written in " << fixedCell(text.seconds, 2) << " s\n";
    return 0;
}

int GenerateCommand::run(const std::vector<std::string>& args)
{
    std::set<std::string> valued {"--run",   "--prompt", "--tokens",       "--temperature", "--top-k",
                                  "--top-p", "--seed",   "--alternatives", "--samples",     "--beam",
                                  "--step",  "--db",     "--pretrained"};
    std::set<std::string> booleans {"--json", "--greedy", "--chat"};
    valued.insert(PretrainedLlmFlags::valued().begin(), PretrainedLlmFlags::valued().end());
    booleans.insert(PretrainedLlmFlags::booleans().begin(), PretrainedLlmFlags::booleans().end());
    const CliFlags flags(args, valued, booleans);
    if (flags.has("--pretrained"))
        return runPretrained(flags);
    PretrainedLlmFlags::refuseWithout(flags, {"--chat", "--data-dir"});
    const std::int64_t runId = runIdFrom(flags.required("--run"));
    const SamplingSettings sampling = SamplingFlags::read(flags);
    const int alternatives = alternativesFrom(flags);
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
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (i > 0)
            out_ << "---------------\n"; // between samples, as nanoGPT's sample.py separates them
        out_ << texts[i].prompt << texts[i].text << "\n";
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
    const std::string how = describeDrawing(sampling);
    const std::string seeds = samples == 1 ? "seed " + std::to_string(sampling.seed)
                                           : "seeds " + std::to_string(sampling.seed) + " to " + std::to_string(sampling.seed + static_cast<std::uint64_t>(samples - 1));
    err_ << "run " << runId << " (" << generator.config().model.model << ", " << generator.weights() << " weights of step "
         << generator.step() << "): " << (samples == 1 ? "" : std::to_string(samples) + " samples of ") << texts.front().steps.size() << " "
         << generator.unit() << ", " << how << ", " << seeds << "; mean probability of the chosen tokens "
         << fixedCell(meanProbability(texts), 3) << " (geometric)\n";
    return 0;
}

} // namespace attnlab
