#include "core/training/SeedAgreement.h"

#include "core/training/ModelExplainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

namespace attnlab {
namespace {

struct Sums {
    double acrossSeeds = 0, toAttention = 0, toUniform = 0;
    int sentences = 0;
    std::string note;
};

} // namespace

std::vector<double> SeedAgreement::distributionOf(const std::vector<double>& scores)
{
    double total = 0;
    for (const double s : scores)
        total += std::abs(s);
    std::vector<double> p(scores.size(), scores.empty() ? 0.0 : 1.0 / static_cast<double>(scores.size()));
    if (total > 0)
        for (std::size_t i = 0; i < scores.size(); ++i)
            p[i] = std::abs(scores[i]) / total;
    return p;
}

double SeedAgreement::jensenShannonDistance(const std::vector<double>& p, const std::vector<double>& q)
{
    // JSD = (KL(p || m) + KL(q || m)) / 2 with m = (p + q) / 2; 0 log 0 = 0.
    double divergence = 0;
    for (std::size_t i = 0; i < p.size() && i < q.size(); ++i) {
        const double m = (p[i] + q[i]) / 2;
        if (p[i] > 0)
            divergence += p[i] * std::log2(p[i] / m) / 2;
        if (q[i] > 0)
            divergence += q[i] * std::log2(q[i] / m) / 2;
    }
    return std::sqrt(std::clamp(divergence, 0.0, 1.0));
}

SeedAgreementReport SeedAgreement::measure(const std::vector<const ModelExplainer*>& explainers,
                                           const std::vector<TextExample>& examples, const std::string& split,
                                           const Options& options, const CancelToken& cancel, const Progress& progress)
{
    if (explainers.size() < 2)
        throw std::invalid_argument("seed agreement compares at least two runs");
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::string> methods{"attention"};
    for (const auto& m : options.methods.empty() ? AttributionOptions::methods() : options.methods)
        if (m != "attention")
            methods.push_back(m);
    SeedAgreementReport report;
    report.split = split;
    std::vector<int> correct(explainers.size(), 0);
    std::map<std::string, Sums> sums;
    const int total = static_cast<int>(examples.size());
    for (const auto& example : examples) {
        if (cancel.isCancelled()) {
            report.complete = false;
            break;
        }
        ++report.examples;
        if (progress)
            progress(report.examples, total);
        if (example.tokens.empty())
            continue;
        // Per run: its scores by method (for the class it predicts).
        std::vector<std::vector<TokenAttribution>> scored;
        for (std::size_t r = 0; r < explainers.size(); ++r) {
            scored.push_back(explainers[r]->attributeTokens(example.tokens, methods, options.attribution));
            if (scored.back().front().targetClass == example.label)
                ++correct[r];
        }
        const auto& tokens = scored.front().front().tokens;
        if (std::any_of(scored.begin(), scored.end(), [&](const auto& s) { return s.front().tokens != tokens; }))
            continue; // another vocabulary or length cut: the token lists cannot be compared
        const std::vector<double> uniform(tokens.size(), 1.0 / static_cast<double>(tokens.size()));
        const bool attended = std::all_of(scored.begin(), scored.end(), [](const auto& run) { return run[0].available(); });
        for (std::size_t m = 0; m < methods.size(); ++m) {
            auto& s = sums[methods[m]];
            bool everyRun = true;
            for (const auto& run : scored)
                if (!run[m].available()) {
                    everyRun = false;
                    s.note = run[m].note;
                }
            if (!everyRun)
                continue;
            std::vector<std::vector<double>> p;
            for (const auto& run : scored)
                p.push_back(distributionOf(run[m].scores));
            double pairs = 0, across = 0, toAttention = 0, toUniform = 0;
            for (std::size_t a = 0; a < p.size(); ++a) {
                for (std::size_t b = a + 1; b < p.size(); ++b, ++pairs)
                    across += jensenShannonDistance(p[a], p[b]);
                if (attended)
                    toAttention += jensenShannonDistance(distributionOf(scored[a][0].scores), p[a]) / static_cast<double>(p.size());
                toUniform += jensenShannonDistance(uniform, p[a]) / static_cast<double>(p.size());
            }
            s.acrossSeeds += across / pairs;
            s.toAttention += attended ? toAttention : std::nan("");
            s.toUniform += toUniform;
            ++s.sentences;
        }
    }
    for (std::size_t r = 0; r < explainers.size(); ++r)
        report.accuracies.push_back(report.examples > 0 ? static_cast<double>(correct[r]) / report.examples : 0.0);
    for (const auto& name : methods) {
        SeedAgreementReport::Method m;
        m.method = name;
        const Sums& s = sums[name];
        m.sentences = s.sentences;
        if (s.sentences > 0) {
            m.acrossSeeds = s.acrossSeeds / s.sentences;
            m.toAttention = s.toAttention / s.sentences;
            m.toUniform = s.toUniform / s.sentences;
        } else {
            m.note = s.note.empty() ? "no sentence scored by every run" : s.note;
        }
        report.methods.push_back(std::move(m));
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

} // namespace attnlab
