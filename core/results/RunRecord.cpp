#include "core/results/RunRecord.h"

#include "core/config/Registry.h"

#include <stdexcept>

namespace attnlab {

RunSummary RunRecord::summary() const
{
    RunSummary s;
    s.status = status;
    s.steps = steps;
    s.seconds = seconds;
    s.bestDevAccuracy = bestDevAccuracy;
    s.bestStep = bestStep;
    s.testAccuracy = testAccuracy;
    s.regression = regression;
    s.bestDevRmse = bestDevRmse;
    s.testMae = testMae;
    s.testRmse = testRmse;
    s.testMape = testMape;
    s.testMacroF1 = testMacroF1;
    s.stoppedEarly = stoppedEarly;
    s.parameters = parameters;
    s.device = device;
    s.message = message;
    // A translation run: its columns hold BLEU / 100; the rest of its figures are in its summary.
    if (Registry::taskOf(dataset) == TaskKind::Translation) {
        if (!summaryJson.empty()) {
            try {
                const RunSummary stored = RunSummary::fromJson(summaryJson);
                if (stored.translation && stored.status == s.status)
                    return stored;
            } catch (const std::invalid_argument&) { // a damaged summary: the columns still say what they say
            }
        }
        s.translation = true;
        s.bestDevBleu = 100.0 * bestDevAccuracy;
        s.testBleu = 100.0 * testAccuracy;
    }
    // A language model: its losses are in its summary; the columns hold its next-token accuracy.
    if (Registry::taskOf(dataset) == TaskKind::LanguageModel) {
        if (!summaryJson.empty()) {
            try {
                const RunSummary stored = RunSummary::fromJson(summaryJson);
                if (stored.languageModel && stored.status == s.status)
                    return stored;
            } catch (const std::invalid_argument&) {
            }
        }
        s.languageModel = true;
    }
    return s;
}

} // namespace attnlab
