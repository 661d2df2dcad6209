#include "cli/commands/HeadsCommand.h"

#include "cli/CliFlags.h"
#include "cli/PretrainedLlmFlags.h"
#include "cli/TextCells.h"
#include "core/training/PretrainedLanguageModel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {
namespace {

constexpr int kBestHeadsShown = 5;

// One score as a layer x head table, heads 1-based as --ablate names them.
void printHeadTable(std::ostream& out, const std::vector<std::vector<double>>& scores)
{
    std::string header = paddedCell("layer", 7);
    for (std::size_t h = 0; h < (scores.empty() ? 0 : scores.front().size()); ++h)
        header += paddedCell("h" + std::to_string(h + 1), 7);
    out << header.erase(header.find_last_not_of(' ') + 1) << "\n";
    for (std::size_t l = 0; l < scores.size(); ++l) {
        std::string row = paddedCell(std::to_string(l + 1), 7);
        for (double score : scores[l])
            row += paddedCell(fixedCell(score, 3), 7);
        out << row.erase(row.find_last_not_of(' ') + 1) << "\n";
    }
}

// "5.3 0.812, 7.1 0.540, ...": the likeliest copiers first.
std::string bestHeads(const std::vector<std::vector<double>>& scores)
{
    std::string text;
    for (const auto& [l, h] : HeadCopyScores::ranked(scores, kBestHeadsShown))
        text += (text.empty() ? "" : ", ") + std::to_string(l + 1) + "." + std::to_string(h + 1) + " " +
            fixedCell(scores[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)], 3);
    return text;
}

} // namespace

int HeadsCommand::run(const std::vector<std::string>& args)
{
    std::set<std::string> valued {"--pretrained", "--length", "--sequences", "--seed", "--run"};
    std::set<std::string> booleans {"--induction", "--json"};
    valued.insert(PretrainedLlmFlags::valued().begin(), PretrainedLlmFlags::valued().end());
    booleans.insert(PretrainedLlmFlags::booleans().begin(), PretrainedLlmFlags::booleans().end());
    const CliFlags flags(args, valued, booleans);
    if (flags.has("--run"))
        throw CliUsageError(
            "heads --run is not there yet: a synthetic-repeat run stores its heads' induction scores with "
            "each evaluation (attnlab-cli runs show N); heads scores --pretrained " +
            std::string(PretrainedLanguageModel::kDefaultId));
    const std::string pretrained = flags.required("--pretrained");
    if (!PretrainedLlmFlags::namesLanguageModel(pretrained))
        throw CliUsageError("--pretrained " + pretrained + ": heads scores a language model's heads (" +
                            PretrainedLanguageModel::kDefaultId + ", " + PretrainedLlmFlags::kShortName +
                            " or a .gguf file); an encoder reads both ways and has no induction to score");
    if (!flags.has("--induction"))
        throw CliUsageError("heads needs --induction (each head's induction and previous-token scores on repeated "
                            "random pieces)");
    const long long length = flags.integer("--length", 50), sequences = flags.integer("--sequences", 4);
    const long long seed = flags.integer("--seed", 1);
    if (seed < 0)
        throw CliUsageError("--seed expects 0 or more, got " + flags.text("--seed", ""));
    const auto clampedInt = [](long long v) { return static_cast<int>(std::clamp<long long>(v, -1, 1 << 20)); };

    const auto model = PretrainedLlmFlags::open(flags);
    const HeadSelection ablate = PretrainedLlmFlags::ablation(flags, *model);
    HeadCopyScores scores;
    try {
        scores = model->copyingHeads(clampedInt(length), clampedInt(sequences), static_cast<unsigned long long>(seed),
                                     ablate);
    } catch (const std::invalid_argument& e) {
        PretrainedLlmFlags::rethrowInFlagTerms(e, {{"length", "--length"}, {"sequences", "--sequences"}});
    }
    if (flags.has("--json")) {
        auto j = nlohmann::json::parse(scores.toJson());
        j["model"] = nlohmann::json::parse(PretrainedLlmFlags::modelJson(*model));
        out_ << j.dump() << "\n";
        return 0;
    }
    out_ << PretrainedLlmFlags::describe(*model) << "\n";
    out_ << "induction: " << scores.sequences << " sequences of " << scores.length
         << " random pieces, each repeated once after itself (seed " << scores.seed << "), read in "
         << fixedCell(scores.seconds, 2) << " s\n";
    if (!ablate.empty())
        out_ << PretrainedLlmFlags::describeAblation(ablate) << "\n";
    out_ << "induction score (mean weight of a repeated piece on the piece after its first occurrence):\n";
    printHeadTable(out_, scores.induction);
    out_ << "previous-token score (mean weight on the piece just before):\n";
    printHeadTable(out_, scores.previousToken);
    out_ << "best induction heads: " << bestHeads(scores.induction) << "\n";
    out_ << "best previous-token heads: " << bestHeads(scores.previousToken) << "\n";
    out_ << "loss (nats a piece): first half " << fixedCell(scores.firstHalfLoss, 3) << ", repeated half "
         << fixedCell(scores.repeatedHalfLoss, 3) << " (a model that copies predicts the repeat)\n";
    return 0;
}

} // namespace attnlab
