#include "core/training/AttentionPermutationTest.h"

#include "core/training/ModelExplainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

namespace attnlab {

double AttentionPermutationTest::totalVariation(const std::vector<double>& p, const std::vector<double>& q)
{
    double sum = 0;
    for (std::size_t i = 0; i < p.size() && i < q.size(); ++i)
        sum += std::abs(p[i] - q[i]);
    return sum / 2;
}

double AttentionPermutationTest::quantile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double at = q * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(at));
    const auto above = std::min(values.size() - 1, below + 1);
    return values[below] + (at - static_cast<double>(below)) * (values[above] - values[below]);
}

PermutationReport AttentionPermutationTest::measure(const ModelExplainer& explainer, const std::vector<TextExample>& examples,
                                                    const std::string& split, const Options& options,
                                                    const CancelToken& cancel, const Progress& progress)
{
    const auto start = std::chrono::steady_clock::now();
    PermutationReport report;
    report.split = split;
    report.permutations = options.permutations;
    report.seed = options.seed;
    std::mt19937_64 random(options.seed);
    std::vector<double> medians;
    std::vector<std::vector<double>> byPeak(3);
    int flipped = 0;
    const int total = static_cast<int>(examples.size());
    for (const auto& example : examples) {
        if (cancel.isCancelled()) {
            report.complete = false;
            break;
        }
        ++report.examples;
        if (progress)
            progress(report.examples, total);
        if (example.tokens.size() < 2)
            continue;
        const auto attention = explainer.attributeTokens(example.tokens, {"attention"}).front();
        if (!attention.available()) {
            report.note = attention.note;
            continue;
        }
        const auto& tokens = attention.tokens; // cut to max_length
        if (tokens.size() < 2)
            continue;
        const auto original = explainer.probabilitiesOf({tokens}).front();
        const auto predicted = static_cast<std::size_t>(std::max_element(original.begin(), original.end()) - original.begin());
        std::vector<std::vector<int>> orders;
        for (int i = 0; i < options.permutations; ++i) {
            std::vector<int> order(tokens.size());
            std::iota(order.begin(), order.end(), 0);
            std::shuffle(order.begin(), order.end(), random);
            orders.push_back(std::move(order));
        }
        std::vector<double> distances;
        int changed = 0;
        for (const auto& p : explainer.probabilitiesWithAttentionPermuted(tokens, orders)) {
            distances.push_back(totalVariation(original, p));
            if (static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin()) != predicted)
                ++changed;
        }
        const double median = quantile(distances, 0.5);
        medians.push_back(median);
        if (2 * changed >= options.permutations)
            ++flipped;
        const double peak = *std::max_element(attention.scores.begin(), attention.scores.end());
        byPeak[peak < 0.25 ? 0 : peak < 0.5 ? 1 : 2].push_back(median);
        ++report.tested;
    }
    if (report.tested > 0) {
        report.medianTvd = quantile(medians, 0.5);
        report.lowerQuartileTvd = quantile(medians, 0.25);
        report.upperQuartileTvd = quantile(medians, 0.75);
        report.meanTvd = std::accumulate(medians.begin(), medians.end(), 0.0) / report.tested;
        report.shareBelow005 = static_cast<double>(std::count_if(medians.begin(), medians.end(), [](double m) { return m < 0.05; })) /
                               report.tested;
        report.shareFlipped = static_cast<double>(flipped) / report.tested;
        for (std::size_t b = 0; b < byPeak.size(); ++b) {
            report.sentencesByPeak[b] = static_cast<int>(byPeak[b].size());
            report.medianTvdByPeak[b] = quantile(byPeak[b], 0.5);
        }
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

} // namespace attnlab
