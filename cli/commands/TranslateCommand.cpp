#include "cli/commands/TranslateCommand.h"

#include "cli/CliFlags.h"
#include "cli/SamplingFlags.h"
#include "cli/TextCells.h"
#include "cli/commands/RunIds.h"
#include "core/data/TextFile.h"
#include "core/data/TranslationText.h"
#include "core/results/AttentionAverage.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/config/DecodingSettings.h"
#include "core/training/Translator.h"
#include "core/platform/Terminal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ostream>


namespace attnlab {
namespace {

// The alignment as a table: a row per target word (and <eos>), a column per source word, weights to 2 decimals.
// "drawn at temperature 0.80, top-k 20, seed 7"
std::string drawnWith(const Translation& t)
{
    std::string how = "drawn at temperature " + fixedCell(t.temperature, 2);
    if (t.topK > 0)
        how += ", top-k " + std::to_string(t.topK);
    if (t.topP < 1.0)
        how += ", top-p " + fixedCell(t.topP, 2);
    return how + ", seed " + std::to_string(t.seed);
}

void printAlignment(std::ostream& out, const Translation& t)
{
    if (t.cross.empty())
        return;
    const AttentionMap mean = AttentionAverage::ofLastLayer(t.cross);
    int heads = 0;
    for (const auto& m : t.cross)
        heads += m.layer == mean.layer;
    std::vector<std::string> rows = t.targetTokens;
    rows.push_back("<eos>");
    std::size_t width = 6;
    for (const auto& w : t.sourceTokens)
        width = std::max(width, std::min<std::size_t>(w.size(), 12) + 1);
    out << "alignment (cross-attention" << (heads > 1 ? ", mean of the last layer's " + std::to_string(heads) + " heads" : "")
        << "; rows: translation, columns: source):\n  " << paddedCell("", 14);
    for (const auto& w : t.sourceTokens)
        out << paddedCell(w.substr(0, 12), width);
    out << "\n";
    for (int r = 0; r < mean.size; ++r) {
        out << "  " << paddedCell(rows[static_cast<std::size_t>(r)].substr(0, 12), 14);
        for (int c = 0; c < mean.width(); ++c)
            out << paddedCell(fixedCell(mean.at(r, c), 2), width);
        out << "\n";
    }
}

} // namespace

int TranslateCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {"--run", "--text", "--file", "--force", "--alternatives", "--beam", "--length-penalty", "--step", "--db",
                                "--temperature", "--top-k", "--top-p", "--seed"},
                         {"--json"});
    const std::int64_t runId = runIdFrom(flags.required("--run"));
    if (flags.has("--text") == flags.has("--file"))
        throw CliUsageError("translate needs --text \"a sentence\" or --file FILE (one sentence a line)");
    Translator::Decoding decoding;
    // The bounds train's --beam and --length-penalty have (DecodingSettings), named by the flag.
    if (flags.has("--beam")) {
        const std::int64_t beam = flags.integer("--beam", 0);
        const auto problem = DecodingSettings::beamProblem(static_cast<int>(std::clamp<std::int64_t>(beam, -1, 1 << 20)));
        if (!problem.empty())
            throw CliUsageError("--beam" + problem.substr(problem.find(':')));
        decoding.beamSize = static_cast<int>(beam);
    }
    if (flags.has("--length-penalty")) {
        const double alpha = flags.real("--length-penalty", 0.0);
        if (const auto problem = DecodingSettings::lengthPenaltyProblem(alpha); !problem.empty())
            throw CliUsageError("--length-penalty" + problem.substr(problem.find(':')));
        decoding.lengthPenalty = alpha;
    }
    if (SamplingFlags::any(flags)) { // each word drawn, as `generate` draws
        if (flags.has("--force"))
            throw CliUsageError("--force takes the typed translation; --temperature, --top-k, --top-p and --seed draw one");
        if (decoding.beamSize.value_or(1) > 1)
            throw CliUsageError("--beam " + std::to_string(*decoding.beamSize) + " with sampling: a drawn translation is one hypothesis; leave out --beam");
        decoding.sampling = SamplingFlags::read(flags);
        decoding.beamSize = 1; // whatever the run's evaluation used
    }
    decoding.alternatives = static_cast<int>(flags.integer("--alternatives", 0));
    if (decoding.alternatives < 0 || decoding.alternatives > 100)
        throw CliUsageError("--alternatives expects 0 to 100 likeliest tokens a step, got " + flags.text("--alternatives", ""));
    if (flags.has("--force") && !flags.has("--text"))
        throw CliUsageError("--force takes the translation of --text \"a sentence\"");
    std::optional<int> step;
    if (flags.has("--step"))
        step = static_cast<int>(flags.integer("--step", 0));
    const bool json = flags.has("--json");

    RunStore store(flags.text("--db", RunStore::defaultPath()));
    const RunRecord run = existingRun(store, runId);
    const Translator translator(keptWeights(store, run, step, "translate with it"));

    if (flags.has("--text")) {
        if (flags.has("--force") && flags.text("--force", "").find_first_not_of(" \t") == std::string::npos)
            throw CliUsageError("--force has no words: give the translation to score");
        if (flags.has("--force") && flags.required("--text").find_first_not_of(" \t") == std::string::npos)
            throw CliUsageError("--text has no words to translate");
        const auto t = flags.has("--force") ? translator.force(flags.required("--text"), flags.required("--force"), decoding)
                                            : translator.translate(flags.required("--text"), decoding);
        if (json) {
            auto j = nlohmann::json::parse(t.toJson());
            j["run_id"] = runId;
            j["step"] = translator.step();
            j["weights"] = translator.weights();
            out_ << j.dump() << "\n";
            return 0;
        }
        if (t.sourceTokens.empty())
            throw CliUsageError("--text has no words to translate");
        out_ << t.text << "\n";
        out_ << "run " << runId << " (" << translator.config().model.model << ", " << translator.weights() << " weights of step "
             << translator.step() << "), " << (t.forced ? std::string("forced target") : t.sampled ? drawnWith(t) : t.beamSize > 1 ? "beam " + std::to_string(t.beamSize) : std::string("greedy"))
             << (t.lengthPenalty > 0 ? ", length penalty " + fixedCell(t.lengthPenalty, 2) : std::string()) << "\n";
        if (t.unknownSourceTokens > 0)
            out_ << t.unknownSourceTokens << " source word" << (t.unknownSourceTokens == 1 ? "" : "s") << " unknown to the model (read as <unk>)\n";
        if (t.unknownTargetTokens > 0)
            out_ << t.unknownTargetTokens << " target word" << (t.unknownTargetTokens == 1 ? "" : "s") << " unknown to the model (read as <unk>)\n";
        out_ << "probabilities:";
        for (std::size_t i = 0; i < t.probabilities.size(); ++i)
            out_ << " " << (i < t.targetTokens.size() ? t.targetTokens[i] : std::string("<eos>")) << " " << fixedCell(t.probabilities[i], 3);
        out_ << "\n";
        printAlignment(out_, t);
        for (std::size_t r = 0; r < t.alternatives.size(); ++r) {
            out_ << "step " << r + 1 << " (" << (r < t.targetTokens.size() ? t.targetTokens[r] : std::string("<eos>")) << "):";
            for (const auto& a : t.alternatives[r])
                out_ << " " << a.token << " " << fixedCell(a.probability, 3);
            out_ << "\n";
        }
        if (!t.reference.empty()) {
            out_ << "right answer: " << TranslationText::joined(t.reference, false);
            if (t.alignmentErrorRate >= 0)
                out_ << " · AER of the attention against the gold alignment " << fixedCell(100.0 * t.alignmentErrorRate, 1) << "%";
            out_ << "\n";
            if (t.headAlignmentErrorRates.size() > 1) {
                out_ << "AER by head:";
                for (std::size_t i = 0; i < t.cross.size() && i < t.headAlignmentErrorRates.size(); ++i)
                    out_ << " layer " << t.cross[i].layer + 1 << " head " << t.cross[i].head + 1 << " "
                         << fixedCell(100.0 * t.headAlignmentErrorRates[i], 1) << "%" << (i + 1 < t.cross.size() ? "," : "");
                out_ << "\n";
            }
        }
        for (std::size_t h = 1; h < t.hypotheses.size(); ++h)
            out_ << "hypothesis " << h + 1 << " (score " << fixedCell(t.hypotheses[h].score, 3) << "): " << t.hypotheses[h].text << "\n";
        return 0;
    }
    const auto lines = TextFile::readLines(flags.required("--file"));
    decoding.withAttention = json;
    const auto started = std::chrono::steady_clock::now();
    // Progress as everywhere in the CLI: a line redrawn on a terminal, JSON lines on stderr otherwise.
    const bool tty = Terminal::isTerminal(Terminal::Stream::Error);
    const auto translations = translator.translateAll(lines, decoding, [&](std::size_t done, std::size_t total) {
        if (tty)
            err_ << "\rtranslated " << done << " of " << total << std::flush;
        else
            err_ << nlohmann::json{{"event", "progress"}, {"done", done}, {"total", total}}.dump() << "\n";
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const std::string summary = "translated " + std::to_string(lines.size()) + " sentences in " + fixedCell(seconds, 2) + " s (" +
                                fixedCell(lines.empty() ? 0.0 : 1000.0 * seconds / static_cast<double>(lines.size()), 2) + " ms a sentence)";
    if (tty)
        err_ << "\r" << summary << "\n";
    else
        err_ << nlohmann::json{{"event", "finished"}, {"text", summary}, {"seconds", seconds}}.dump() << "\n";
    for (const auto& t : translations)
        out_ << (json ? t.toJson() : t.text) << "\n";
    return 0;
}

} // namespace attnlab
