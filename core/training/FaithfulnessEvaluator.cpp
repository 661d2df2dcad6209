#include "core/training/FaithfulnessEvaluator.h"

#include "core/data/readers/SyntheticSentiment.h"
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
    int clauseHits = 0;
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

std::vector<SentenceDeletionCurve> FaithfulnessEvaluator::deletionCurves(const std::vector<TokenAttribution>& attributions) const
{
    std::vector<SentenceDeletionCurve> curves;
    std::vector<std::vector<std::string>> inputs;
    int target = -1;
    for (const auto& a : attributions) {
        if (!a.available() || a.tokens.empty())
            continue;
        target = a.targetClass;
        SentenceDeletionCurve curve;
        curve.method = a.method;
        curve.order = orderOf(a.scores);
        auto changed = a.tokens;
        inputs.push_back(changed);
        for (const int at : curve.order) {
            changed[static_cast<std::size_t>(at)] = "<unk>";
            inputs.push_back(changed);
        }
        curves.push_back(std::move(curve));
    }
    if (curves.empty())
        return curves;
    const auto probabilities = explainer_.probabilitiesOf(inputs);
    std::size_t row = 0;
    for (auto& curve : curves) {
        for (std::size_t k = 0; k <= curve.order.size(); ++k)
            curve.probabilities.push_back(probabilities[row++][static_cast<std::size_t>(target)]);
        for (const double p : curve.probabilities)
            curve.aopc += (curve.probabilities.front() - p) / static_cast<double>(curve.probabilities.size());
    }
    return curves;
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
    // The known answer: the built-in grammar's label is decided by the clause after the last "but".
    const bool knownClause = explainer_.config().dataset == "synthetic-sentiment";
    double clauseShare = 0;
    // A sentence whose scores are in and whose curve points wait for the group's one forward pass.
    struct Pending {
        int target = 0;
        int length = 0;
        std::vector<int> ks;                      // the k that the 11 points sample, each once
        std::vector<std::string> orderNames;
        std::vector<std::vector<std::size_t>> rows; // per order: deletion rows of ks, then insertion rows
    };
    std::vector<std::vector<std::string>> inputs; // the group's curve points, all sentences
    std::vector<Pending> pending;
    const auto flush = [&] {
        if (pending.empty())
            return;
        const auto probabilities = explainer_.probabilitiesOf(inputs);
        for (const auto& sentence : pending) {
            for (std::size_t o = 0; o < sentence.orderNames.size(); ++o) {
                // The curve over 0..T known at the sampled k: atPoints reads only those.
                const auto points = static_cast<std::size_t>(sentence.length + 1);
                std::vector<double> deletion(points), insertion(points);
                const auto& rows = sentence.rows[o];
                for (std::size_t j = 0; j < sentence.ks.size(); ++j) {
                    const auto k = static_cast<std::size_t>(sentence.ks[j]);
                    deletion[k] = probabilities[rows[j]][static_cast<std::size_t>(sentence.target)];
                    insertion[k] = probabilities[rows[sentence.ks.size() + j]][static_cast<std::size_t>(sentence.target)];
                }
                auto& t = totals[sentence.orderNames[o]];
                const auto d = atPoints(deletion), in = atPoints(insertion);
                for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
                    t.deletion[static_cast<std::size_t>(i)] += d[static_cast<std::size_t>(i)];
                    t.insertion[static_cast<std::size_t>(i)] += in[static_cast<std::size_t>(i)];
                }
                ++t.sentences;
            }
        }
        report.examples += static_cast<int>(pending.size());
        inputs.clear();
        pending.clear();
        if (progress)
            progress(report.examples, total);
    };
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

        // Sentences with a contrast only: without one, the whole sentence is the deciding clause.
        const std::size_t clause = knownClause ? SyntheticSentiment::decidingClauseStart(tokens) : 0;
        if (clause > 0) {
            ++report.contrastSentences;
            clauseShare += static_cast<double>(tokens.size() - clause) / static_cast<double>(tokens.size());
        }
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
            if (clause > 0 && static_cast<std::size_t>(orders.back().second.front()) >= clause)
                ++t.clauseHits;
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
        if (clause > 0 && static_cast<std::size_t>(shuffled.front()) >= clause)
            ++totals["random"].clauseHits;
        orders.emplace_back("random", shuffled);

        // This sentence's curve points, for the group's batch: per order, the deletions then the insertions
        // of the k that the 11 points sample (k = round(f T)); the sentence itself and its all-<unk> form,
        // shared by every order, once.
        Pending sentence;
        sentence.target = attributions.front().targetClass;
        sentence.length = length;
        for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
            const int k = static_cast<int>(std::lround(static_cast<double>(i) / (FaithfulnessReport::kPoints - 1) * length));
            if (sentence.ks.empty() || sentence.ks.back() != k)
                sentence.ks.push_back(k);
        }
        const std::size_t whole = inputs.size(), unknown = whole + 1;
        inputs.push_back(tokens);
        inputs.emplace_back(tokens.size(), "<unk>");
        const auto inputOf = [&](int k, bool deletion, const std::vector<int>& order) -> std::size_t {
            if ((deletion && k == 0) || (!deletion && k == length))
                return whole;
            if ((deletion && k == length) || (!deletion && k == 0))
                return unknown;
            auto changed = deletion ? tokens : std::vector<std::string>(tokens.size(), "<unk>");
            for (int i = 0; i < k; ++i) {
                const auto at = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
                changed[at] = deletion ? std::string("<unk>") : tokens[at];
            }
            inputs.push_back(std::move(changed));
            return inputs.size() - 1;
        };
        for (const auto& [name, order] : orders) {
            std::vector<std::size_t> rows;
            for (const bool deletion : {true, false})
                for (const int k : sentence.ks)
                    rows.push_back(inputOf(k, deletion, order));
            sentence.orderNames.push_back(name);
            sentence.rows.push_back(std::move(rows));
        }
        pending.push_back(std::move(sentence));
        if (pending.size() >= std::max<std::size_t>(1, options.sentencesPerPass))
            flush();
    }
    flush();

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
            m.clauseHits = t.clauseHits;
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
    if (report.contrastSentences > 0)
        report.clauseChance = clauseShare / report.contrastSentences;
    report.seconds = secondsSince(start);
    return report;
}

} // namespace attnlab
