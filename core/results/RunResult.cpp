#include "core/results/RunResult.h"

#include "core/results/DecimalText.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>

namespace attnlab {
namespace {

// 23813 -> "23,813": parameter counts are read at a glance.
std::string grouped(std::int64_t value)
{
    std::string digits = std::to_string(value < 0 ? -value : value);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return value < 0 ? "-" + digits : digits;
}

} // namespace

RunResult::RunResult(RunSummary summary) : summary_(std::move(summary)) {}

bool RunResult::hasResults() const
{
    // A count model (the n-gram) is measured once, at step 0.
    return summary_.status != RunStatus::Running && (summary_.bestStep > 0 || (summary_.languageModel && summary_.bestDevLoss > 0.0));
}

bool RunResult::hasTest() const
{
    return hasResults() && summary_.status == RunStatus::Completed;
}

double RunResult::devValue() const
{
    if (summary_.languageModel)
        return summary_.bestDevLoss;
    if (summary_.translation)
        return summary_.bestDevBleu;
    return regression() ? summary_.bestDevRmse : 100.0 * summary_.bestDevAccuracy;
}

double RunResult::testValue() const
{
    if (summary_.languageModel)
        return summary_.testLoss;
    if (summary_.translation)
        return summary_.testBleu;
    return regression() ? summary_.testRmse : 100.0 * summary_.testAccuracy;
}

std::string RunResult::devText(int decimals) const
{
    if (!hasResults())
        return "-";
    if (summary_.languageModel)
        return "loss " + fixedDecimals(devValue(), decimals + 1);
    if (summary_.translation)
        return "BLEU " + fixedDecimals(devValue(), decimals);
    return fixedDecimals(devValue(), decimals) + (regression() ? "" : "%");
}

std::string RunResult::testText(int decimals) const
{
    if (!hasTest())
        return "-";
    if (summary_.languageModel)
        return "loss " + fixedDecimals(testValue(), decimals + 1);
    if (summary_.translation)
        return "BLEU " + fixedDecimals(testValue(), decimals);
    return fixedDecimals(testValue(), decimals) + (regression() ? "" : "%");
}

std::string RunResult::testDetail() const
{
    if (summary_.languageModel)
        return "test loss " + fixedDecimals(summary_.testLoss, 4) + " nats a token (" + fixedDecimals(summary_.testBitsPerToken, 3) +
               " bits), perplexity " + fixedDecimals(summary_.testPerplexity, 2) + ", next-token accuracy " +
               fixedDecimals(100.0 * summary_.testAccuracy, 1) + "%";
    if (summary_.translation) {
        std::string text = "test BLEU " + fixedDecimals(summary_.testBleu, 2) + ", chrF " + fixedDecimals(summary_.testChrf, 2) +
                           " (sacreBLEU), tokenised BLEU " + fixedDecimals(summary_.testBleuTokenized, 2) + ", perplexity " +
                           fixedDecimals(summary_.testPerplexity, 2);
        if (summary_.testExactMatch >= 0.0)
            text += ", exact match " + fixedDecimals(100.0 * summary_.testExactMatch, 1) + "%";
        if (summary_.testAer >= 0.0)
            text += ", AER " + fixedDecimals(100.0 * summary_.testAer, 1) + "%";
        return text;
    }
    if (regression())
        return "test RMSE " + fixedDecimals(summary_.testRmse, 4) + ", MAE " + fixedDecimals(summary_.testMae, 4) + ", MAPE " +
               fixedDecimals(summary_.testMape, 2) + "%";
    return "test accuracy " + fixedDecimals(100.0 * summary_.testAccuracy, 2) + "%, macro-F1 " +
           fixedDecimals(100.0 * summary_.testMacroF1, 2) + "%";
}

std::string RunResult::headline() const
{
    if (!hasResults())
        return "";
    std::string text = (regression() ? "best dev RMSE " + devText(4) : "best dev " + devText(2)) + " at step " +
                       std::to_string(summary_.bestStep);
    if (!hasTest())
        return text;
    if (summary_.translation || summary_.languageModel)
        return text + "; " + testDetail() + (summary_.stoppedEarly ? " (stopped early)" : "");
    if (regression())
        return text + "; test MAE " + fixedDecimals(summary_.testMae, 4) + ", RMSE " + fixedDecimals(summary_.testRmse, 4) + ", MAPE " +
               fixedDecimals(summary_.testMape, 2) + "%";
    return text + "; test " + testText(2) + ", macro-F1 " + fixedDecimals(100.0 * summary_.testMacroF1, 2) + "%" +
           (summary_.stoppedEarly ? " (stopped early)" : "");
}

std::string RunResult::sentence() const
{
    std::string text = toString(summary_.status) + " after " + std::to_string(summary_.steps) + " steps in " +
                       fixedDecimals(summary_.seconds, 1) + " s";
    if (hasResults())
        text += ": " + headline();
    if (!summary_.message.empty())
        text += " (" + summary_.message + ")";
    return text;
}

std::string RunResult::brief() const
{
    std::string text = toString(summary_.status);
    if (hasResults()) {
        text += regression() ? " · best dev RMSE " + devText(4) : " · best dev " + devText(1);
        text += " (step " + std::to_string(summary_.bestStep) + ")";
        if (hasTest())
            text += regression() ? " · test RMSE " + testText(4) : " · test " + testText(1);
    } else if (!summary_.message.empty()) {
        text += " · " + summary_.message.substr(0, 60);
    }
    if (summary_.parameters > 0)
        text += " · " + grouped(summary_.parameters) + " params";
    return text + " · " + fixedDecimals(summary_.seconds, 1) + " s";
}

std::string RunResult::toJson(bool withConfusion) const
{
    nlohmann::json o{{"status", toString(summary_.status)}, {"steps", summary_.steps},
                     {"seconds", summary_.seconds},         {"best_step", summary_.bestStep},
                     {"params", summary_.parameters},       {"device", summary_.device},
                     {"message", summary_.message},         {"stopped_early", summary_.stoppedEarly},
                     {"regression", summary_.regression}};
    if (summary_.languageModel) {
        o["language_model"] = true;
        o["best_dev_loss"] = summary_.bestDevLoss;
        o["test_loss"] = summary_.testLoss;
        o["test_bits_per_token"] = summary_.testBitsPerToken;
        o["test_perplexity"] = summary_.testPerplexity;
        o["best_dev_accuracy"] = summary_.bestDevAccuracy; // next-token accuracy: what lists rank by
        o["test_accuracy"] = summary_.testAccuracy;
    } else if (summary_.translation) {
        o["translation"] = true;
        o["best_dev_bleu"] = summary_.bestDevBleu;
        o["test_bleu"] = summary_.testBleu;
        o["test_chrf"] = summary_.testChrf;
        o["test_bleu_tokenized"] = summary_.testBleuTokenized;
        o["test_perplexity"] = summary_.testPerplexity;
        if (summary_.testExactMatch >= 0.0)
            o["test_exact_match"] = summary_.testExactMatch;
        if (summary_.testAer >= 0.0)
            o["test_aer"] = summary_.testAer;
        o["bleu_signature"] = summary_.bleuSignature;
        o["chrf_signature"] = summary_.chrfSignature;
        o["best_dev_accuracy"] = summary_.bestDevAccuracy; // BLEU / 100: what lists rank by
        o["test_accuracy"] = summary_.testAccuracy;
    } else if (regression()) {
        o["best_dev_rmse"] = summary_.bestDevRmse;
        o["test_mae"] = summary_.testMae;
        o["test_rmse"] = summary_.testRmse;
        o["test_mape"] = summary_.testMape;
    } else {
        o["best_dev_accuracy"] = summary_.bestDevAccuracy;
        o["test_accuracy"] = summary_.testAccuracy;
        o["test_macro_f1"] = summary_.testMacroF1;
        if (withConfusion)
            o["test_confusion"] = summary_.testConfusion;
    }
    return o.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
