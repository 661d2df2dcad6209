#include "core/training/FaithfulnessEvaluator.h"

#include "core/training/ModelExplainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

namespace attnlab {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Sums of one method's per-sentence values, divided at the end.
struct Totals {
    std::vector<double> deletion = std::vector<double>(FaithfulnessReport::kPoints, 0.0);
    std::vector<double> insertion = std::vector<double>(FaithfulnessReport::kPoints, 0.0);
    int sentences = 0;
    double tau = 0;
    int taus = 0;
    double seconds = 0;
    std::string note;
};

} // namespace

FaithfulnessEvaluator::FaithfulnessEvaluator(const ModelExplainer& explainer) : explainer_(explainer) {}

std::vector<int> FaithfulnessEvaluator::orderOf(const std::vector<double>& scores)
{
    std::vector<int> order(scores.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return scores[static_cast<std::size_t>(a)] > scores[static_cast<std::size_t>(b)];
    });
    return order;
}

std::vector<double> FaithfulnessEvaluator::atPoints(const std::vector<double>& curve)
{
    std::vector<double> points;
    const auto tokens = static_cast<double>(curve.size() - 1);
    for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
        const double fraction = static_cast<double>(i) / (FaithfulnessReport::kPoints - 1);
        points.push_back(curve[static_cast<std::size_t>(std::lround(fraction * tokens))]);
    }
    return points;
}

double FaithfulnessEvaluator::kendallTau(const std::vector<double>& a, const std::vector<double>& b)
{
    const std::size_t n = std::min(a.size(), b.size());
    double concordant = 0, discordant = 0, tiesA = 0, tiesB = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const double da = a[i] - a[j], db = b[i] - b[j];
            if (da == 0 && db == 0)
                continue; // tied in both: in neither count nor either tie term of tau-b
            if (da == 0)
                ++tiesA;
            else if (db == 0)
                ++tiesB;
            else if ((da > 0) == (db > 0))
                ++concordant;
            else
                ++discordant;
        }
    const double denominator = std::sqrt((concordant + discordant + tiesA) * (concordant + discordant + tiesB));
    if (n < 2 || denominator == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return (concordant - discordant) / denominator;
}

FaithfulnessReport FaithfulnessEvaluator::evaluate(const std::vector<TextExample>& examples, const std::string& split,
                                                   const Options& options, const CancelToken& cancel,
                                                   const Progress& progress) const
{
    const auto start = Clock::now();
    const std::vector<std::string> methods = options.methods.empty() ? AttributionOptions::methods() : options.methods;
    std::vector<std::string> scored = methods; // attention is needed for the rank agreement, asked for or not
    if (std::find(scored.begin(), scored.end(), "attention") == scored.end())
        scored.insert(scored.begin(), "attention");
    std::map<std::string, Totals> totals;
    std::mt19937_64 random(options.seed);
    FaithfulnessReport report;
    report.split = split;
    report.seed = options.seed;
    report.igSteps = options.attribution.igSteps;
    report.igBaseline = options.attribution.igBaseline;
    report.occlusion = options.attribution.occlusion;
    const int total = static_cast<int>(examples.size());
    for (const auto& example : examples) {
        if (cancel.isCancelled()) {
            report.complete = false;
            break;
        }
        if (example.tokens.empty()) {
            ++report.examples;
            continue;
        }
        const auto attributions = explainer_.attributeTokens(example.tokens, scored, options.attribution);
        const auto& tokens = attributions.front().tokens; // cut to max_length
        const int length = static_cast<int>(tokens.size());
        const std::vector<double>* attention = nullptr;
        for (const auto& a : attributions)
            if (a.method == "attention" && a.available())
                attention = &a.scores;

        std::vector<std::pair<std::string, std::vector<int>>> orders;
        for (const auto& a : attributions) {
            if (std::find(methods.begin(), methods.end(), a.method) == methods.end())
                continue; // scored only for the rank agreement
            auto& t = totals[a.method];
            t.seconds += a.seconds;
            if (!a.available()) {
                t.note = a.note;
                continue;
            }
            orders.emplace_back(a.method, orderOf(a.scores));
            if (attention && a.method != "attention") {
                if (const double tau = kendallTau(a.scores, *attention); !std::isnan(tau)) {
                    t.tau += tau;
                    ++t.taus;
                }
            }
        }
        std::vector<int> shuffled(static_cast<std::size_t>(length));
        std::iota(shuffled.begin(), shuffled.end(), 0);
        std::shuffle(shuffled.begin(), shuffled.end(), random);
        orders.emplace_back("random", shuffled);

        // Every curve point of this sentence in one batch: per order, T+1 deletions then T+1 insertions.
        const int target = attributions.front().targetClass;
        std::vector<std::vector<std::string>> inputs;
        for (const auto& [method, order] : orders) {
            for (int k = 0; k <= length; ++k) {
                auto deleted = tokens;
                for (int i = 0; i < k; ++i)
                    deleted[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = "<unk>";
                inputs.push_back(std::move(deleted));
            }
            for (int k = 0; k <= length; ++k) {
                std::vector<std::string> given(tokens.size(), "<unk>");
                for (int i = 0; i < k; ++i) {
                    const auto at = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
                    given[at] = tokens[at];
                }
                inputs.push_back(std::move(given));
            }
        }
        const auto probabilities = explainer_.probabilitiesOf(inputs);
        std::size_t row = 0;
        for (const auto& [method, order] : orders) {
            std::vector<double> deletion, insertion;
            for (int k = 0; k <= length; ++k)
                deletion.push_back(probabilities[row++][static_cast<std::size_t>(target)]);
            for (int k = 0; k <= length; ++k)
                insertion.push_back(probabilities[row++][static_cast<std::size_t>(target)]);
            auto& t = totals[method];
            const auto d = atPoints(deletion), in = atPoints(insertion);
            for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
                t.deletion[static_cast<std::size_t>(i)] += d[static_cast<std::size_t>(i)];
                t.insertion[static_cast<std::size_t>(i)] += in[static_cast<std::size_t>(i)];
            }
            ++t.sentences;
        }
        ++report.examples;
        if (progress)
            progress(report.examples, total);
    }

    std::vector<std::string> listed = methods;
    listed.push_back("random");
    for (const auto& name : listed) {
        FaithfulnessReport::Method m;
        m.method = name;
        const auto it = totals.find(name);
        if (it != totals.end()) {
            const Totals& t = it->second;
            m.sentences = t.sentences;
            m.seconds = t.seconds;
            m.note = t.sentences == 0 ? t.note : std::string();
            if (t.taus > 0)
                m.tauWithAttention = t.tau / t.taus;
            if (t.sentences > 0) {
                for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
                    m.deletion.push_back(t.deletion[static_cast<std::size_t>(i)] / t.sentences);
                    m.insertion.push_back(t.insertion[static_cast<std::size_t>(i)] / t.sentences);
                }
                for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
                    m.deletionAopc += (m.deletion.front() - m.deletion[static_cast<std::size_t>(i)]) / FaithfulnessReport::kPoints;
                    m.insertionArea += m.insertion[static_cast<std::size_t>(i)] / FaithfulnessReport::kPoints;
                }
            }
        }
        report.methods.push_back(std::move(m));
    }
    report.seconds = secondsSince(start);
    return report;
}

} // namespace attnlab
