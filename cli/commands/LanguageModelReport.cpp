#include "cli/commands/LanguageModelReport.h"

#include "cli/CliFlags.h"
#include "cli/PretrainedLlmFlags.h"
#include "cli/TextCells.h"
#include "core/results/LogitLens.h"
#include "core/results/ModelExplanation.h"
#include "core/training/PretrainedLanguageModel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace attnlab {

int LanguageModelReport::reading(const CliFlags& flags, const PretrainedLanguageModel& model, const ModelExplanation& e,
                                 const std::vector<int>& ids, const HeadSelection& ablate)
{
    if (flags.has("--json")) {
        auto j = nlohmann::json::parse(e.toJson());
        j["ids"] = ids;
        j["model"] = nlohmann::json::parse(PretrainedLlmFlags::modelJson(model));
        j.update(nlohmann::json::parse(PretrainedLlmFlags::ablationJson(ablate)));
        out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    const auto shown = [](const std::string& piece) { return PretrainedLlmFlags::shownPiece(piece); };
    out_ << PretrainedLlmFlags::describe(model) << "\n";
    if (!ablate.empty())
        out_ << PretrainedLlmFlags::describeAblation(ablate) << "\n";
    out_ << "pieces (\u2423 is a space):";
    for (std::size_t i = 0; i < e.tokens.size(); ++i)
        out_ << " " << shown(e.tokens[i]) << "(" << (i < ids.size() ? ids[i] : -1) << ")";
    out_ << "\n";
    out_ << "next piece, the " << e.classNames.size() << " likeliest:\n";
    std::size_t width = 6;
    for (const auto& c : e.classNames)
        width = std::max(width, PretrainedLlmFlags::displayWidth(shown(c)) + 2);
    for (std::size_t c = 0; c < e.classNames.size(); ++c)
        out_ << "  " << PretrainedLlmFlags::fittedCell(shown(e.classNames[c]), std::min<std::size_t>(width, 24))
             << fixedCell(e.probabilities[c], 4) << "  "
             << std::string(static_cast<std::size_t>(e.probabilities[c] * 40.0 + 0.5), '#') << "\n";
    const auto& maps = e.attention.maps;
    const int layers = model.config().layers, heads = model.config().heads;
    const int n = static_cast<int>(e.tokens.size());
    out_ << "attention: " << maps.size() << " maps, " << layers << " layers x " << heads
         << " heads (--json: every map; --steps: one head step by step)\n";
    if (n < 2) {
        out_ << "one piece: every head can attend to it alone\n";
        return 0;
    }
    // Per head, the mean over the queries after the first: the weight on the first piece (the attention sink) and on
    // the piece just before (from the third piece on, where that is not the first piece too).
    const int previousFrom = n >= 3 ? 2 : 1;
    out_ << paddedCell("layer", 7) << paddedCell("sink head  on the first piece", 32)
         << "previous-token head  on the piece before\n";
    for (int l = 0; l < layers; ++l) {
        int sinkHead = 0, previousHead = 0;
        double sinkBest = -1.0, previousBest = -1.0;
        for (const auto& m : maps) {
            if (m.layer != l)
                continue;
            double sink = 0.0, previous = 0.0;
            for (int q = 1; q < n; ++q)
                sink += m.at(q, 0);
            for (int q = previousFrom; q < n; ++q)
                previous += m.at(q, q - 1);
            sink /= n - 1;
            previous /= n - previousFrom;
            if (sink > sinkBest)
                sinkBest = sink, sinkHead = m.head;
            if (previous > previousBest)
                previousBest = previous, previousHead = m.head;
        }
        const auto name = [&](int h) { return std::to_string(l + 1) + "." + std::to_string(h + 1); };
        out_ << paddedCell(std::to_string(l + 1), 7) << paddedCell(name(sinkHead), 11)
             << paddedCell(fixedCell(sinkBest, 3), 21) << paddedCell(name(previousHead), 21)
             << fixedCell(previousBest, 3) << "\n";
    }
    return 0;
}

// The logit lens as a table: a short text's every position (its likeliest next piece at each stage), a longer
// text's (or, with --top, any text's) last position with the K likeliest.
int LanguageModelReport::lens(const CliFlags& flags, const PretrainedLanguageModel& model, const LogitLens& lens,
                              const HeadSelection& ablate)
{
    if (flags.has("--json")) {
        auto j = nlohmann::json::parse(lens.toJson());
        j["model"] = nlohmann::json::parse(PretrainedLlmFlags::modelJson(model));
        j.update(nlohmann::json::parse(PretrainedLlmFlags::ablationJson(ablate)));
        out_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    const auto shown = [](const std::string& piece) { return PretrainedLlmFlags::shownPiece(piece); };
    constexpr std::size_t kWidestTable = 8, kCell = 16;
    out_ << PretrainedLlmFlags::describe(model) << "\n";
    if (!ablate.empty())
        out_ << PretrainedLlmFlags::describeAblation(ablate) << "\n";
    const std::size_t n = lens.tokens.size();
    const auto guess = [&](const LogitLens::Guess& g) {
        return PretrainedLlmFlags::fittedCell(
            PretrainedLlmFlags::fittedCell(shown(g.token), 10) + " " + fixedCell(g.probability, 2), kCell);
    };
    const auto trimmed = [](std::string cell) { return cell.erase(cell.find_last_not_of(' ') + 1); };
    if (n <= kWidestTable && !flags.has("--top")) {
        out_ << "logit lens: at each position, the likeliest next piece read out of the stream after each stage "
                "(the final norm, then the output layer) and its probability\n";
        std::string header = paddedCell("stage", 11);
        for (const auto& t : lens.tokens)
            header += PretrainedLlmFlags::fittedCell(shown(t), kCell);
        out_ << trimmed(header) << "\n";
        for (std::size_t s = 0; s < lens.stages.size(); ++s) {
            std::string row = paddedCell(lens.stages[s], 11);
            for (std::size_t p = 0; p < n; ++p)
                row +=
                    lens.top[s][p].empty() ? PretrainedLlmFlags::fittedCell("", kCell) : guess(lens.top[s][p].front());
            out_ << trimmed(row) << "\n";
        }
        return 0;
    }
    const std::size_t k = lens.top.empty() || lens.top.front().empty() ? 0 : lens.top.front().back().size();
    out_ << "logit lens at the last piece (" << shown(lens.tokens.back()) << ", piece " << n - 1 << "): the " << k
         << " likeliest next pieces read out of the stream after each stage\n";
    std::string header = paddedCell("stage", 11);
    for (std::size_t i = 0; i < k; ++i)
        header += PretrainedLlmFlags::fittedCell(std::to_string(i + 1), kCell);
    out_ << trimmed(header) << "\n";
    for (std::size_t s = 0; s < lens.stages.size(); ++s) {
        std::string row = paddedCell(lens.stages[s], 11);
        for (const auto& g : lens.top[s].back())
            row += guess(g);
        out_ << trimmed(row) << "\n";
    }
    return 0;
}

} // namespace attnlab
