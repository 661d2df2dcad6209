#include "core/results/RunSummary.h"
#include "core/platform/JsonInteger.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace attnlab {

std::string RunSummary::toJson() const
{
    nlohmann::json j = {
        {"status", attnlab::toString(status)},
        {"steps", steps},
        {"seconds", seconds},
        {"best_dev_accuracy", bestDevAccuracy},
        {"best_step", bestStep},
        {"test_accuracy", testAccuracy},
        {"regression", regression},
        {"best_dev_rmse", bestDevRmse},
        {"test_mae", testMae},
        {"test_rmse", testRmse},
        {"test_mape", testMape},
        {"test_macro_f1", testMacroF1},
        {"test_confusion", testConfusion},
        {"stopped_early", stoppedEarly},
        {"parameters", parameters},
        {"device", device},
        {"message", message},
    };
    if (translation) // only then: the summaries of every other run stay byte for byte as they were
        j.update({{"translation", true}, {"best_dev_bleu", bestDevBleu}, {"test_bleu", testBleu}, {"test_chrf", testChrf},
                  {"test_bleu_tokenized", testBleuTokenized}, {"test_perplexity", testPerplexity},
                  {"test_exact_match", testExactMatch}, {"test_aer", testAer}, {"bleu_signature", bleuSignature},
                  {"chrf_signature", chrfSignature}});
    if (languageModel)
        j.update({{"language_model", true}, {"best_dev_loss", bestDevLoss}, {"test_loss", testLoss},
                  {"test_bits_per_token", testBitsPerToken}, {"test_perplexity", testPerplexity}});
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

RunSummary RunSummary::fromJson(const std::string& text)
{
    RunSummary s;
    try {
        const auto j = nlohmann::json::parse(text);
        if (!j.is_object())
            throw std::invalid_argument("run summary JSON: expected an object");
        auto get = [&](const char* key, auto& field) {
            if (auto it = j.find(key); it != j.end() && !it->is_null()) {
                try {
                    JsonInteger::getTo(*it, field); // integers range-checked (a float such as 1e92 is not cast)
                } catch (const std::invalid_argument& e) {
                    throw std::invalid_argument("run summary JSON: '" + std::string(key) + "': " + e.what());
                }
            }
        };
        std::string status = attnlab::toString(s.status);
        get("status", status);
        s.status = runStatusFromString(status);
        get("steps", s.steps);
        get("seconds", s.seconds);
        get("best_dev_accuracy", s.bestDevAccuracy);
        get("best_step", s.bestStep);
        get("test_accuracy", s.testAccuracy);
        get("regression", s.regression);
        get("best_dev_rmse", s.bestDevRmse);
        get("test_mae", s.testMae);
        get("test_rmse", s.testRmse);
        get("test_mape", s.testMape);
        get("test_macro_f1", s.testMacroF1);
        get("test_confusion", s.testConfusion);
        get("stopped_early", s.stoppedEarly);
        get("parameters", s.parameters);
        get("device", s.device);
        get("message", s.message);
        get("translation", s.translation);
        get("best_dev_bleu", s.bestDevBleu);
        get("test_bleu", s.testBleu);
        get("test_chrf", s.testChrf);
        get("test_bleu_tokenized", s.testBleuTokenized);
        get("test_perplexity", s.testPerplexity);
        get("language_model", s.languageModel);
        get("best_dev_loss", s.bestDevLoss);
        get("test_loss", s.testLoss);
        get("test_bits_per_token", s.testBitsPerToken);
        get("test_exact_match", s.testExactMatch);
        get("test_aer", s.testAer);
        get("bleu_signature", s.bleuSignature);
        get("chrf_signature", s.chrfSignature);
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(std::string("run summary JSON: ") + e.what());
    }
    return s;
}

} // namespace attnlab
