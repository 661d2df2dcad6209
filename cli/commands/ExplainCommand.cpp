#include "cli/commands/ExplainCommand.h"

#include "cli/CliFlags.h"
#include "cli/PretrainedLlmFlags.h"
#include "cli/TextCells.h"
#include "cli/commands/GateReport.h"
#include "cli/commands/LanguageModelReport.h"
#include "cli/commands/RunIds.h"
#include "core/analysis/AttentionRollout.h"
#include "core/analysis/TokenGrouping.h"
#include "core/config/Registry.h"
#include "core/data/install/DatasetManifest.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/training/PretrainedEncoder.h"
#include "core/training/PretrainedLanguageModel.h"
#include "core/training/TextGenerator.h"
#include "core/training/Translator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <stdexcept>

namespace attnlab {
namespace {

// A map as a table: one row per query token, one column per key, weights to 3 decimals.
void printMap(std::ostream& out, const std::vector<std::string>& tokens, const AttentionMap& map)
{
    std::size_t width = 5;
    for (const auto& t : tokens)
        width = std::max(width, std::min<std::size_t>(t.size(), 12) + 1);
    out << "  " << paddedCell("", width);
    for (const auto& t : tokens)
        out << paddedCell(t.substr(0, 12), width);
    out << "\n";
    for (int q = 0; q < map.size; ++q) {
        out << "  " << paddedCell(tokens[static_cast<std::size_t>(q)].substr(0, 12), width);
        for (int k = 0; k < map.size; ++k)
            out << paddedCell(fixedCell(map.at(q, k), 3), width);
        out << "\n";
    }
}

// The methods as columns, the tokens as rows (a sentence reads down), scores to 3 decimals; below, what
// each column is, and integrated gradients' completeness.
void printAttributions(std::ostream& out, const ModelExplanation& e, const std::vector<TokenAttribution>& attributions)
{
    if (attributions.empty())
        return;
    const auto& first = attributions.front();
    out << "explained: p(" << e.classNames[static_cast<std::size_t>(first.targetClass)] << ") = " << fixedCell(first.probability, 4)
        << (first.targetClass == e.predicted ? " (the predicted class)" : "") << "\n";
    std::size_t width = 6;
    for (const auto& t : e.tokens)
        width = std::max(width, std::min<std::size_t>(t.size(), 16) + 2);
    out << paddedCell("token", width);
    for (const auto& a : attributions)
        out << paddedCell(a.method, std::max<std::size_t>(a.method.size() + 2, 11));
    out << "\n";
    for (std::size_t t = 0; t < e.tokens.size(); ++t) {
        out << paddedCell(e.tokens[t].substr(0, 16), width);
        for (const auto& a : attributions)
            out << paddedCell(a.available() ? fixedCell(a.scores[t], 3) : std::string("-"), std::max<std::size_t>(a.method.size() + 2, 11));
        out << "\n";
    }
    for (const auto& a : attributions) {
        out << "  " << a.method << ": " << AttributionOptions::describe(a.method);
        if (!a.note.empty())
            out << " [" << a.note << "]";
        out << " (" << fixedCell(1000.0 * a.seconds, 1) << " ms)\n";
        if (a.method == "ig" && a.available())
            out << "    " << a.steps << " steps from the " << a.baseline << " baseline: p(baseline) = "
                << fixedCell(a.baselineProbability, 4) << ", completeness gap |sum - (p(x) - p(baseline))| = "
                << fixedCell(a.completenessGap, 5) << "\n";
    }
}

std::string describeSteps(const std::vector<CheckpointRef>& checkpoints)
{
    std::string steps;
    for (const auto& c : checkpoints)
        steps += (steps.empty() ? "" : ", ") + std::to_string(c.step);
    return steps.empty() ? "none" : steps;
}

// --pretrained ID|FOLDER: a manifest's id ("minilm" short for all-minilm-l6-v2) found along the data folders,
// or a model folder itself.
std::string pretrainedFolder(const std::string& value, const std::string& dataDir)
{
    const std::string id = value == "minilm" ? PretrainedEncoder::kDefaultId : value;
    if (const DatasetManifest* m = DatasetManifest::find(id); m && m->task == "pretrained")
        return PretrainedEncoder::locate(id, dataDir);
    if (value.find('/') == std::string::npos && value.find('.') == std::string::npos)
        throw CliUsageError("--pretrained " + value +
                            ": not a pretrained model's id (all-minilm-l6-v2 or minilm, "
                            "smollm2-135m or smollm2) nor a folder or .gguf file; `attnlab-cli list` names the "
                            "pretrained models");
    return value;
}

// --steps' --layer and --head (1-based) and --query (0-based): at least `least`; the model names its own upper bounds.
int stepsNumber(const CliFlags& flags, const char* flag, long long fallback, long long least)
{
    const long long value = flags.integer(flag, fallback);
    if (value < least)
        throw CliUsageError(std::string(flag) + " expects " + (least == 1 ? "1 or more" : "0 or more") + ", got " +
                            flags.text(flag, ""));
    return static_cast<int>(std::min<long long>(value, 1 << 20));
}

} // namespace

// A pretrained encoder's heads on a sentence: every map, or --layer/--head ones, over word pieces
// or merged words (--words), with or without [CLS]/[SEP] (--hide-special); the rollout over all layers.
int ExplainCommand::runPretrained(const CliFlags& flags)
{
    for (const char* flag : {"--run", "--step", "--probe", "--method", "--target", "--ig-steps", "--ig-baseline", "--occlusion"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) + " does not go with --pretrained: the pretrained encoder is not a run "
                                "and has no classes until it is fine-tuned");
    const std::string text = flags.required("--text");
    auto number = [&](const char* flag, int most) -> int {
        if (!flags.has(flag))
            return 0;
        const long long v = flags.integer(flag, 0);
        if (v < 1 || v > most)
            throw CliUsageError(std::string(flag) + " expects 1.." + std::to_string(most) + ", got " + flags.text(flag, ""));
        return static_cast<int>(v);
    };
    const PretrainedEncoder encoder(pretrainedFolder(flags.required("--pretrained"), flags.text("--data-dir", "")));
    const BertConfig& config = encoder.config();
    const int layer = number("--layer", config.layers), head = number("--head", config.heads);
    ModelExplanation e = encoder.explain(text);
    const bool words = flags.has("--words"), hideSpecial = flags.has("--hide-special");
    std::vector<std::string> labels = e.tokens;
    std::vector<AttentionMap> maps;
    if (words || hideSpecial) {
        int groups = 0;
        const auto grouping = TokenGrouping::forPieces(e.tokens, e.pieceWords, words, hideSpecial, &labels, &groups);
        for (const auto& m : e.attention.maps)
            maps.push_back(TokenGrouping::apply(m, grouping, groups));
        if (e.rollout)
            e.rollout = TokenGrouping::apply(*e.rollout, grouping, groups); // rolled out over pieces, then grouped
    } else {
        maps = e.attention.maps;
    }
    std::vector<AttentionMap> shown;
    for (const auto& m : maps)
        if ((layer == 0 || m.layer == layer - 1) && (head == 0 || m.head == head - 1))
            shown.push_back(m);
    const std::string name = config.nameOrPath.empty() ? encoder.folder() : config.nameOrPath;
    if (flags.has("--json")) {
        auto j = nlohmann::json::parse(e.toJson());
        nlohmann::json jm = nlohmann::json::array();
        for (const auto& m : shown)
            jm.push_back({{"layer", m.layer}, {"head", m.head}, {"size", m.size}, {"weights", m.weights}});
        j["maps"] = std::move(jm);
        j["labels"] = labels; // what the maps' rows and columns are: pieces, or merged words
        j["grouping"] = {{"words", words}, {"hide_special", hideSpecial}};
        if (e.rollout)
            j["rollout"] = e.rollout->weights;
        j["model"] = {{"folder", encoder.folder()}, {"name", name}, {"layers", config.layers}, {"heads", config.heads},
                      {"hidden", config.hiddenSize}, {"parameters", encoder.parameterCount()},
                      {"load_seconds", encoder.loadSeconds()}};
        out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    for (const auto& note : e.notes())
        err_ << "explain: " << note << "\n";
    out_ << name << " (pretrained, not fine-tuned) · " << config.layers << " layers x " << config.heads << " heads, "
         << encoder.parameterCount() << " parameters · loaded in " << fixedCell(1000.0 * encoder.loadSeconds(), 0) << " ms\n";
    std::string pieces;
    for (std::size_t i = 0; i < e.tokens.size(); ++i)
        pieces += (i ? " " : "") + e.tokens[i];
    out_ << "word pieces: " << pieces << "\n";
    if (words || hideSpecial) {
        std::string shownLabels;
        for (std::size_t i = 0; i < labels.size(); ++i)
            shownLabels += (i ? " " : "") + labels[i];
        out_ << "shown as: " << shownLabels << " ("
             << (words ? "pieces merged into words: attention to a word summed over its pieces, from a word averaged" : "")
             << (words && hideSpecial ? "; " : "")
             << (hideSpecial ? "[CLS] and [SEP] hidden, each row renormalised over the rest" : "") << ")\n";
    }
    for (const auto& m : shown) {
        out_ << "layer " << m.layer + 1 << " head " << m.head + 1 << " (rows attend to columns)\n";
        printMap(out_, labels, m);
    }
    if (e.rollout && layer == 0 && head == 0) {
        out_ << "attention rollout over " << config.layers << " layers (Abnar & Zuidema 2020)\n";
        printMap(out_, labels, *e.rollout);
    }
    return 0;
}

// One head's attention for one query, step by step (--steps --layer L --head H --query I, 1-based layer and head,
// 0-based query): a stored classifier's on --text, or a language model's on --text as its context.
int ExplainCommand::runSteps(const CliFlags& flags)
{
    const bool pretrained = flags.has("--pretrained");
    const std::int64_t runId = pretrained ? 0 : runIdFrom(flags.required("--run"));
    const std::string text = flags.required("--text");
    const int layer = stepsNumber(flags, "--layer", 1, 1) - 1, head = stepsNumber(flags, "--head", 1, 1) - 1;
    const int query = stepsNumber(flags, "--query", 0, 0);
    AttentionStepByStep s;
    if (pretrained) { // a pretrained encoder's head on the text's word pieces (0 is [CLS])
        for (const char* flag : {"--run", "--step", "--db"})
            if (flags.has(flag))
                throw CliUsageError(std::string(flag) + " does not go with --pretrained: the pretrained encoder is not a run");
        for (const char* flag : {"--words", "--hide-special"})
            if (flags.has(flag))
                throw CliUsageError(std::string(flag) + " does not go with --steps: a head is taken step by step over the word pieces");
        const PretrainedEncoder encoder(pretrainedFolder(flags.required("--pretrained"), flags.text("--data-dir", "")));
        try {
            s = encoder.stepByStep(text, layer, head, query);
        } catch (const std::invalid_argument& e) {
            throw CliUsageError("--" + std::string(e.what()));
        }
        return printSteps(flags, s, 0);
    }
    RunStore store(flags.text("--db", RunStore::defaultPath()));
    const RunRecord run = existingRun(store, runId);
    std::optional<int> step;
    if (flags.has("--step"))
        step = static_cast<int>(flags.integer("--step", 0));
    const auto chosen = ModelExplainer::choose(store.checkpoints(runId), run.bestStep, step);
    if (!chosen)
        throw std::runtime_error("run " + std::to_string(runId) + " kept no weights: train it again to take its attention step by step");
    if (!run.summary().translation)
        for (const char* flag : {"--part", "--force"})
            if (flags.has(flag))
                throw CliUsageError(std::string(flag) + " goes with a translation run; run " + std::to_string(runId) + " is not one");
    try {
        if (run.summary().translation)
            s = Translator(*chosen).stepByStep(text, flags.text("--force", ""), flags.text("--part", ""), layer, head, query);
        else if (run.summary().languageModel)
            s = TextGenerator(*chosen).stepByStep(text, layer, head, query);
        else
            s = ModelExplainer(*chosen).stepByStep(text, layer, head, query);
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        throw CliUsageError("--" + what);
    }
    return printSteps(flags, s, runId);
}

int ExplainCommand::printSteps(const CliFlags& flags, const AttentionStepByStep& s, std::int64_t runId)
{
    const int layer = s.layer, head = s.head, query = s.query;
    if (flags.has("--json")) {
        auto j = nlohmann::json::parse(s.toJson());
        if (runId > 0)
            j["run_id"] = runId;
        out_ << j.dump() << "\n";
        return 0;
    }
    const auto& queries = s.queryTokens.empty() ? s.tokens : s.queryTokens; // cross-attention: the translation's rows
    const std::string part = s.part == "cross" ? " · cross-attention" : s.part.empty() ? "" : " · " + s.part + " self-attention";
    out_ << (runId > 0 ? "run " + std::to_string(runId) : std::string("pretrained")) << part << " · layer " << layer + 1
         << " head " << head + 1 << " · query " << query << " ("
         << (static_cast<std::size_t>(query) < queries.size() ? queries[static_cast<std::size_t>(query)]
                                                              : std::string())
         << "), d_k " << s.headSize << ", position " << s.position
         << (s.scaled ? "" : ", scores NOT divided by sqrt(d_k)")
         << (s.kvHead >= 0 ? ", keys and values of key/value head " + std::to_string(s.kvHead + 1) + " (shared)"
                           : std::string())
         << "\n";
    // A key's first 12 characters, whole UTF-8 ones (a language model's pieces show "␣" for a space).
    const auto keyCell = [](const std::string& token) {
        return PretrainedLlmFlags::fittedCell(PretrainedLlmFlags::clipped(token, 12), 14);
    };
    out_ << paddedCell("key", 14) << paddedCell("q.k", 10) << paddedCell("position", 10) << paddedCell("/" + fixedCell(s.divisor, 3), 10)
         << paddedCell("weight", 10) << "\n";
    for (std::size_t j = 0; j < s.tokens.size(); ++j)
        out_ << keyCell(s.tokens[j]) << paddedCell(fixedCell(s.dot[j], 3), 10)
             << paddedCell(fixedCell(s.positionTerm[j], 3), 10)
             << paddedCell(s.masked[j] ? std::string("masked") : fixedCell(s.scores[j], 3), 10)
             << paddedCell(fixedCell(s.weights[j], 4), 10) << "\n";
    out_ << "output (sum of weight x value):";
    for (float o : s.output)
        out_ << " " << fixedCell(o, 3);
    out_ << "\n";
    return 0;
}

// The pretrained language model on a text: its reading (pieces, the next piece, each layer's sink and previous-token
// heads), the logit lens (--lens) or one head step by step (--steps), heads knocked out with --ablate.
int ExplainCommand::runLanguageModel(const CliFlags& flags)
{
    for (const char* flag : {"--run", "--step", "--probe", "--db"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) +
                                " does not go with --pretrained: the pretrained language model is not a run");
    for (const char* flag : {"--method", "--target", "--ig-steps", "--ig-baseline", "--occlusion"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) +
                                " does not go with the pretrained language model: it has no classes to "
                                "attribute (explain --run N --method on a stored classifier)");
    for (const char* flag : {"--words", "--hide-special"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) +
                                " goes with the MiniLM encoder's word pieces (--pretrained minilm); the "
                                "language model's pieces are shown as they are");
    for (const char* flag : {"--part", "--force"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) + " goes with --steps on a translation run");
    const bool lens = flags.has("--lens"), steps = flags.has("--steps"), json = flags.has("--json");
    if (lens && steps)
        throw CliUsageError("--lens and --steps do not go together: the logit lens reads every layer's stream, --steps "
                            "one head's arithmetic; run explain once for each");
    if (flags.has("--top") && !lens)
        throw CliUsageError("--top goes with --lens (the K likeliest pieces at each stage)");
    if (!steps)
        for (const char* flag : {"--layer", "--head", "--query"})
            if (flags.has(flag))
                throw CliUsageError(std::string(flag) +
                                    " goes with --steps (one head step by step); --json gives every map");
    if (steps)
        for (const char* flag : {"--ablate", "--ablate-mean"})
            if (flags.has(flag))
                throw CliUsageError(std::string(flag) +
                                    " does not go with --steps: one head is taken step by step in the "
                                    "whole model (--ablate goes with the maps and --lens)");
    const std::string text = flags.required("--text");
    const int layer = stepsNumber(flags, "--layer", 1, 1) - 1, head = stepsNumber(flags, "--head", 1, 1) - 1;
    const int query = stepsNumber(flags, "--query", 0, 0);
    const int top = static_cast<int>(std::clamp<long long>(flags.integer("--top", 5), -1, 1000));

    const auto model = PretrainedLlmFlags::open(flags);
    const HeadSelection ablate = PretrainedLlmFlags::ablation(flags, *model);
    const std::map<std::string, std::string> flagOf {
        {"text", "--text"}, {"layer", "--layer"}, {"head", "--head"}, {"query", "--query"}, {"top", "--top"}};
    try {
        const std::vector<int> ids = model->tokenize(text).ids; // refuses an empty text or invalid UTF-8 first
        if (steps) {
            AttentionStepByStep s = model->stepByStep(text, layer, head, query);
            if (!json)
                for (auto& token : s.tokens)
                    token = PretrainedLlmFlags::shownPiece(token);
            return printSteps(flags, s, 0);
        }
        if (lens)
            return LanguageModelReport(out_).lens(flags, *model, model->logitLens(text, top, ablate), ablate);
        return LanguageModelReport(out_).reading(flags, *model, model->explain(text, ablate), ids, ablate);
    } catch (const CliUsageError&) {
        throw;
    } catch (const std::invalid_argument& e) {
        PretrainedLlmFlags::rethrowInFlagTerms(e, flagOf);
    }
}

int ExplainCommand::run(const std::vector<std::string>& args)
{
    std::set<std::string> valued {"--run",    "--text",     "--step",        "--probe",     "--db",         "--method",
                                  "--target", "--ig-steps", "--ig-baseline", "--occlusion", "--pretrained", "--layer",
                                  "--head",   "--data-dir", "--query",       "--part",      "--force",      "--top"};
    std::set<std::string> booleans {"--json", "--words", "--hide-special", "--steps", "--lens", "--gates"};
    valued.insert(PretrainedLlmFlags::valued().begin(), PretrainedLlmFlags::valued().end());
    booleans.insert(PretrainedLlmFlags::booleans().begin(), PretrainedLlmFlags::booleans().end());
    const CliFlags flags(args, valued, booleans);
    if (flags.has("--pretrained") && PretrainedLlmFlags::namesLanguageModel(flags.text("--pretrained", "")))
        return runLanguageModel(flags);
    PretrainedLlmFlags::refuseWithout(flags, {"--lens", "--top"});
    if (flags.has("--gates") && flags.has("--steps"))
        throw CliUsageError(
            "--gates and --steps do not go together: --gates reads a recurrent model's gates, --steps one "
            "head's attention");
    if (flags.has("--gates"))
        return GateReport::run(flags, out_);
    if (flags.has("--steps"))
        return runSteps(flags); // a run's model or, with --pretrained, a pretrained encoder's
    for (const char* flag : {"--part", "--force"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) + " goes with --steps on a translation run (one head of its encoder, decoder or cross-attention)");
    if (flags.has("--pretrained"))
        return runPretrained(flags);
    for (const char* flag : {"--layer", "--head", "--data-dir", "--words", "--hide-special", "--query"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) + " goes with --pretrained (a pretrained encoder's heads) or --steps (one head step by step)");
    const std::int64_t runId = runIdFrom(flags.required("--run"));
    std::optional<int> step;
    if (flags.has("--step")) {
        step = static_cast<int>(flags.integer("--step", 0));
        if (*step < 0)
            throw CliUsageError("--step expects a training step (0 or more), got " + flags.text("--step", ""));
    }
    if (!flags.has("--text") && !step)
        throw CliUsageError("explain needs --text \"a sentence\" (or --step S for the stored snapshot nearest to S)");
    const bool json = flags.has("--json");
    RunStore store(flags.text("--db", RunStore::defaultPath()));
    const RunRecord run = existingRun(store, runId);
    const auto checkpoints = store.checkpoints(runId);
    const auto chosen = ModelExplainer::choose(checkpoints, run.bestStep, step);

    if (!chosen || !flags.has("--text")) {
        if (!step) // no checkpoint at all and no step to fall back on
            throw std::runtime_error("run " + std::to_string(runId) + " kept no weights (it was trained with "
                                     "--no-checkpoint, or before checkpoints were kept, or did not complete); "
                                     "train it again to explore it, or give --step S for its stored snapshots");
        const int probe = static_cast<int>(flags.integer("--probe", 0));
        if (probe < 0)
            throw CliUsageError("--probe expects a probe number (0 = the probe sentence), got " + flags.text("--probe", ""));
        const auto snapshot = store.attentionNearest(runId, *step, probe);
        if (!snapshot)
            throw std::runtime_error("run " + std::to_string(runId) + " stored no attention snapshot of probe " +
                                     std::to_string(probe) + " to show at step " + std::to_string(*step) + " (it has " +
                                     std::to_string(store.attentionProbes(runId).size()) + " probes)");
        const std::string note =
            (flags.has("--text") ? "the weights of step " + std::to_string(*step) + " were not kept (kept: " +
                                       describeSteps(checkpoints) + "), so the text cannot be run through them; "
                                 : std::string()) +
            "the stored snapshot nearest to step " + std::to_string(*step) + " is step " + std::to_string(snapshot->step) +
            " (" + (snapshot->probeLabel.empty() ? std::string("the run's probe input") : snapshot->probeLabel) + ")";
        if (json) {
            auto j = nlohmann::json::parse(snapshot->toJson());
            j["run_id"] = runId;
            j["requested_step"] = *step;
            j["weights_kept"] = false;
            j["notes"] = {note};
            out_ << j.dump() << "\n";
            return 0;
        }
        err_ << "explain: " << note << "\n";
        out_ << "run " << runId << " · stored snapshot at step " << snapshot->step << "\n";
        std::string tokens;
        for (const auto& t : snapshot->tokens)
            tokens += (tokens.empty() ? "" : " ") + t;
        out_ << "tokens: " << tokens << "\n";
        for (const auto& m : snapshot->maps) {
            out_ << "layer " << m.layer + 1 << " head " << m.head + 1 << " (rows attend to columns)\n";
            printMap(out_, snapshot->tokens, m);
        }
        if (!snapshot->pooling.empty()) {
            out_ << snapshot->poolingName << ":";
            for (std::size_t i = 0; i < snapshot->pooling.size() && i < snapshot->tokens.size(); ++i)
                out_ << " " << snapshot->tokens[i] << " " << fixedCell(snapshot->pooling[i], 3);
            out_ << "\n";
        }
        return 0;
    }

    // Explanation methods: --method a,b or all; their options checked before the model is loaded.
    std::vector<std::string> methods;
    AttributionOptions options;
    if (flags.has("--method")) {
        try {
            methods = AttributionOptions::parseList(flags.text("--method", ""));
        } catch (const std::invalid_argument& error) {
            throw CliUsageError(std::string("--method: ") + error.what());
        }
        options.targetClass = static_cast<int>(flags.integer("--target", -1));
        options.igSteps = static_cast<int>(flags.integer("--ig-steps", options.igSteps));
        options.igBaseline = flags.text("--ig-baseline", options.igBaseline);
        options.occlusion = flags.text("--occlusion", options.occlusion);
        if (std::string problem = options.validate(); !problem.empty()) {
            for (const auto& [key, flag] : {std::pair<std::string, std::string>{"ig_steps", "--ig-steps"},
                                            {"ig_baseline", "--ig-baseline"}, {"occlusion", "--occlusion"},
                                            {"target class", "--target"}})
                if (problem.rfind(key, 0) == 0)
                    problem = flag + problem.substr(key.size());
            throw CliUsageError(problem);
        }
    } else {
        for (const char* flag : {"--target", "--ig-steps", "--ig-baseline", "--occlusion"})
            if (flags.has(flag))
                throw CliUsageError(std::string(flag) + " goes with --method (which explanation methods to run)");
    }

    const ModelExplainer explainer(*chosen);
    const ModelExplanation e = explainer.explain(flags.required("--text"));
    std::vector<TokenAttribution> attributions;
    if (flags.has("--method")) {
        try {
            attributions = explainer.attribute(flags.required("--text"), methods, options);
        } catch (const std::invalid_argument& error) {
            std::string what = error.what(); // "target class 7: the model has 5 classes (0..4)"
            if (what.rfind("target class ", 0) == 0)
                what = "--target " + what.substr(13);
            throw CliUsageError(what);
        }
    }
    if (json) {
        auto j = nlohmann::json::parse(e.toJson());
        j["run_id"] = runId;
        j["checkpoint"] = chosen->path;
        if (flags.has("--method")) {
            j["attributions"] = nlohmann::json::array();
            for (const auto& a : attributions) {
                auto entry = nlohmann::json::parse(a.toJson());
                entry["target"] = e.classNames.at(static_cast<std::size_t>(a.targetClass)); // as "predicted" names it
                j["attributions"].push_back(std::move(entry));
            }
        }
        out_ << j.dump() << "\n";
        return 0;
    }
    for (const auto& note : e.notes())
        err_ << "explain: " << note << "\n";
    out_ << "run " << runId << " · " << run.model << (run.position.empty() ? "" : " + " + run.position) << " on "
         << run.dataset << " · " << (e.weights == "best" ? "best-dev" : e.weights) << " weights of step " << e.step << "\n";
    if (e.tokens.empty()) {
        out_ << "no tokens: the text is empty after tokenising\n";
        return 0;
    }
    std::string tokens;
    for (std::size_t i = 0; i < e.tokens.size(); ++i)
        tokens += (i ? " " : "") + e.tokens[i] + (e.unknown[i] ? "(?)" : "");
    out_ << "tokens: " << tokens << "\n";
    out_ << "prediction: " << e.classNames[static_cast<std::size_t>(e.predicted)] << " ("
         << fixedCell(100.0 * e.probabilities[static_cast<std::size_t>(e.predicted)], 1) << "%)\n";
    std::size_t nameWidth = 0;
    for (const auto& c : e.classNames)
        nameWidth = std::max(nameWidth, c.size());
    for (std::size_t c = 0; c < e.classNames.size(); ++c)
        out_ << "  " << paddedCell(e.classNames[c], nameWidth + 1) << fixedCell(e.probabilities[c], 4) << "  "
             << std::string(static_cast<std::size_t>(e.probabilities[c] * 40.0 + 0.5), '#') << "\n";
    if (flags.has("--method")) {
        printAttributions(out_, e, attributions);
        return 0;
    }
    for (const auto& m : e.attention.maps) {
        out_ << "layer " << m.layer + 1 << " head " << m.head + 1 << " (rows attend to columns)\n";
        printMap(out_, e.tokens, m);
    }
    if (!e.attention.pooling.empty()) {
        out_ << e.attention.poolingName << ":";
        for (std::size_t i = 0; i < e.tokens.size(); ++i)
            out_ << " " << e.tokens[i] << " " << fixedCell(e.attention.pooling[i], 3);
        out_ << "\n";
    }
    if (e.rollout && e.attention.maps.size() > 1) {
        out_ << "attention rollout over " << (e.attention.maps.back().layer + 1) << " layers (Abnar & Zuidema 2020)\n";
        printMap(out_, e.tokens, *e.rollout);
    }
    if (e.attention.maps.empty() && e.attention.pooling.empty())
        out_ << "this model has no attention to show\n";
    return 0;
}

} // namespace attnlab
