#include "core/nn/training/SequenceDecoder.h"

#include "core/data/Vocabulary.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/training/TokenSampler.h"
#include "core/nn/training/TranslationDecodingSource.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace attnlab {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

} // namespace

double SequenceDecoder::lengthPenalty(int length, double alpha)
{
    return alpha == 0.0 ? 1.0 : std::pow((5.0 + length) / 6.0, alpha);
}

std::vector<int> SequenceDecoder::maxLengths(const torch::Tensor& sourceMask, int cap)
{
    std::vector<int> limits;
    for (auto length : hostLongs(sourceMask.sum(1)))
        limits.push_back(std::min(cap, static_cast<int>(2 * length + 10)));
    return limits;
}

std::vector<std::vector<DecodedHypothesis>> SequenceDecoder::decode(Seq2SeqModel& model, const torch::Tensor& source,
                                                                    const torch::Tensor& sourceMask, const Settings& settings)
{
    const auto limits = maxLengths(sourceMask, std::min(kMaxOutputLength, settings.maxLength));
    std::vector<TokenSampler> samplers;
    if (settings.sampling) {
        if (auto problem = settings.sampling->problem(); !problem.empty())
            throw std::invalid_argument(problem);
        if (settings.beamSize > 1)
            throw std::invalid_argument("sampling: a drawn translation is one hypothesis; it needs a beam of 1, not " +
                                        std::to_string(settings.beamSize));
        for (int64_t i = 0; i < source.size(0); ++i) {
            auto own = *settings.sampling;
            own.seed = settings.seeds.empty() ? own.seed + static_cast<std::uint64_t>(i) : settings.seeds.at(static_cast<std::size_t>(i));
            samplers.emplace_back(own);
        }
    }
    if (settings.beamSize > 1)
        return beam(model, source, sourceMask, settings.beamSize, settings.lengthPenalty, limits);
    std::vector<std::vector<DecodedHypothesis>> out;
    for (auto& h : greedy(model, source, sourceMask, limits, settings.sampling ? &samplers : nullptr))
        out.push_back({std::move(h)});
    return out;
}

void SequenceDecoder::write(DecodingSource& source, const std::vector<int>& maxLength, std::vector<TokenSampler>* samplers,
                            const std::function<void(const WrittenStep&)>& record)
{
    torch::NoGradGuard noGrad;
    const std::int64_t end = source.endToken();
    WrittenStep step;
    step.rows.resize(static_cast<std::size_t>(source.rows()));
    std::iota(step.rows.begin(), step.rows.end(), 0);
    DecodingSource::Chosen previous;
    const int longest = maxLength.empty() ? -1 : *std::max_element(maxLength.begin(), maxLength.end());
    for (int t = 0; t <= longest; ++t) {
        step.t = t;
        step.out = source.step(previous, t);
        const auto& scores = step.out.scores; // [A, V]
        const std::size_t writing = step.rows.size();
        step.chosen.clear();
        step.hostScores.clear();
        step.distributions.clear();
        if (samplers) { // each row draws from its own stream: one copy of the scores to the host a step
            step.hostScores = TokenSampler::hostLogits(scores);
            const auto v = static_cast<std::size_t>(scores.size(1));
            for (std::size_t a = 0; a < writing; ++a) {
                const auto first = step.hostScores.begin() + static_cast<std::ptrdiff_t>(a * v);
                auto& sampler = (*samplers)[static_cast<std::size_t>(step.rows[a])];
                step.distributions.push_back(sampler.distribution(std::vector<double>(first, first + static_cast<std::ptrdiff_t>(v))));
                step.chosen.push_back(sampler.next(step.distributions.back()));
            }
        } else {
            step.chosen = hostLongs(scores.argmax(-1));
        }
        step.ends.assign(writing, false);
        std::vector<std::int64_t> keep; // positions among the writing rows of those that go on
        for (std::size_t a = 0; a < writing; ++a) {
            const bool atLimit = maxLength[static_cast<std::size_t>(step.rows[a])] == t;
            if (atLimit && end >= 0) // a sentence at its limit ends here: the end token, whatever the model would say
                step.chosen[a] = end;
            step.ends[a] = atLimit || (end >= 0 && step.chosen[a] == end);
            if (!step.ends[a])
                keep.push_back(static_cast<std::int64_t>(a));
        }
        step.tokens = torch::tensor(step.chosen, torch::kLong).to(scores.device());
        record(step);
        if (keep.empty())
            break;
        previous = {step.tokens, step.chosen};
        if (keep.size() < writing) { // a finished row leaves, so a few long ones do not keep the others' arithmetic going
            const auto index = torch::tensor(keep, torch::kLong).to(scores.device());
            source.keep(index);
            previous.tokens = previous.tokens.index_select(0, index);
            std::vector<std::int64_t> ids, rows;
            for (auto a : keep) {
                ids.push_back(previous.ids[static_cast<std::size_t>(a)]);
                rows.push_back(step.rows[static_cast<std::size_t>(a)]);
            }
            previous.ids = std::move(ids);
            step.rows = std::move(rows);
        }
    }
}

std::vector<DecodedHypothesis> SequenceDecoder::greedy(Seq2SeqModel& model, const torch::Tensor& source,
                                                       const torch::Tensor& sourceMask, const std::vector<int>& maxLength,
                                                       std::vector<TokenSampler>* samplers)
{
    torch::NoGradGuard noGrad;
    const int64_t n = source.size(0);
    TranslationDecodingSource decoder(model, source, sourceMask);
    // Each step's tokens, log-probabilities and attention for all N sentences: the rows of finished ones stay zero,
    // and each hypothesis is cut at its end below.
    std::vector<torch::Tensor> tokens, logps, attention;
    std::vector<int> endStep(static_cast<std::size_t>(n), -1);
    std::vector<bool> cut(static_cast<std::size_t>(n), false);
    write(decoder, maxLength, samplers, [&](const WrittenStep& step) {
        const auto& logp = step.out.scores; // [A, V] log p (drawn tokens too: the model's own probability)
        const auto bestLogp = logp.gather(1, step.tokens.unsqueeze(1)).squeeze(1);
        if (static_cast<int64_t>(step.rows.size()) == n) {
            tokens.push_back(step.tokens);
            logps.push_back(bestLogp);
            if (step.out.attention.defined())
                attention.push_back(step.out.attention);
        } else {
            const auto rows = torch::tensor(step.rows, torch::kLong).to(logp.device());
            tokens.push_back(torch::zeros({n}, step.tokens.options()).index_copy_(0, rows, step.tokens));
            logps.push_back(torch::zeros({n}, bestLogp.options()).index_copy_(0, rows, bestLogp));
            if (step.out.attention.defined()) {
                auto sizes = step.out.attention.sizes().vec();
                sizes[0] = n;
                attention.push_back(torch::zeros(sizes, step.out.attention.options()).index_copy_(0, rows, step.out.attention));
            }
        }
        for (std::size_t a = 0; a < step.rows.size(); ++a) {
            if (!step.ends[a])
                continue;
            const auto i = static_cast<std::size_t>(step.rows[a]);
            endStep[i] = step.t;
            // Cut at the maximum length: <eos> was forced where the model wanted another token.
            cut[i] = maxLength[i] == step.t && logp[static_cast<int64_t>(a)].argmax().item<std::int64_t>() != Seq2SeqModel::kEos;
        }
    });
    const auto allTokens = torch::stack(tokens, 1).cpu();                      // [N, steps]
    const auto allLogps = torch::stack(logps, 1).to(torch::kCPU, torch::kFloat); // [N, steps]
    const auto allAttention = attention.empty() ? torch::Tensor() : torch::stack(attention, 1).to(torch::kCPU, torch::kFloat);
    std::vector<DecodedHypothesis> out(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        auto& h = out[static_cast<std::size_t>(i)];
        const int end = endStep[static_cast<std::size_t>(i)];
        const auto row = hostLongs(allTokens[i].slice(0, 0, end));
        h.tokens.assign(row.begin(), row.end());
        h.logProbabilities = hostFloats(allLogps[i].slice(0, 0, end + 1));
        for (float lp : h.logProbabilities)
            h.logProbability += lp;
        h.score = h.logProbability / lengthPenalty(end + 1, 0.0);
        h.finished = !cut[static_cast<std::size_t>(i)];
        if (allAttention.defined())
            h.attention = allAttention[i].slice(0, 0, end + 1).clone();
    }
    return out;
}

std::vector<std::vector<DecodedHypothesis>> SequenceDecoder::beam(Seq2SeqModel& model, const torch::Tensor& source,
                                                                  const torch::Tensor& sourceMask, int beamSize,
                                                                  double alpha, const std::vector<int>& maxLength)
{
    torch::NoGradGuard noGrad;
    TranslationDecodingSource decoder(model, source, sourceMask, beamSize);
    return search(decoder, beamSize, alpha, maxLength);
}

std::vector<std::vector<DecodedHypothesis>> SequenceDecoder::search(DecodingSource& source, int beamSize, double alpha,
                                                                    const std::vector<int>& maxLength, int alternatives)
{
    torch::NoGradGuard noGrad;
    const int64_t k = beamSize, n = source.rows(), b = n / k;
    const std::int64_t end = source.endToken();
    // Only hypothesis 0 is alive at first: the others start at -inf so the first step does not pick K copies.
    std::vector<double> alive(static_cast<std::size_t>(n), kMinusInfinity);
    for (int64_t s = 0; s < b; ++s)
        alive[static_cast<std::size_t>(s * k)] = 0.0;
    DecodingSource::Chosen previous;
    torch::Tensor tokenHistory = torch::empty({n, 0}, torch::kLong), logpHistory; // on the host, row = hypothesis
    std::vector<std::vector<int>> parentHistory(static_cast<std::size_t>(n));
    // Each step's attention rows and likeliest tokens for every row, on the host: a finished hypothesis takes its own
    // from the rows its parents name (the rows are reordered every step; these are not).
    std::vector<torch::Tensor> attentionSteps, alternativeIds, alternativeLogps;
    std::vector<std::int64_t> contextStarts;
    std::vector<std::vector<DecodedHypothesis>> finished(static_cast<std::size_t>(b));
    std::vector<bool> done(static_cast<std::size_t>(b), false);
    const int longest = *std::max_element(maxLength.begin(), maxLength.end());

    for (int t = 0; t <= longest; ++t) {
        const auto out = source.step(previous, t);
        const auto logp = out.logProbabilities ? out.scores : torch::log_softmax(out.scores.to(torch::kFloat), -1); // [N, V]
        const int64_t v = logp.size(1);
        auto candidates = (torch::tensor(alive, logp.options().dtype(torch::kDouble)).unsqueeze(1) + logp.to(torch::kDouble));
        candidates = candidates.view({b, k * v});
        for (int64_t s = 0; s < b; ++s) {
            if (done[static_cast<std::size_t>(s)])
                candidates[s].fill_(kMinusInfinity);
            else if (end >= 0 && maxLength[static_cast<std::size_t>(s)] == t) { // at its limit: every hypothesis ends now
                auto eos = candidates[s].view({k, v}).select(1, end).clone();
                candidates[s].fill_(kMinusInfinity);
                candidates[s].view({k, v}).select(1, end).copy_(eos);
            }
        }
        const auto top = candidates.topk(std::min<int64_t>(2 * k, k * v), 1);
        const auto values = std::get<0>(top).cpu().contiguous();
        const auto indices = hostLongs(std::get<1>(top));
        const int64_t width = values.size(1);
        const double* value = values.data_ptr<double>();
        const auto logpCpu = logp.to(torch::kCPU).contiguous();
        if (out.attention.defined()) {
            attentionSteps.push_back(out.attention.to(torch::kCPU, torch::kFloat));
            contextStarts.push_back(out.contextStart);
        }
        if (alternatives > 0) {
            const auto likeliest = logpCpu.topk(std::min<int64_t>(alternatives, v), 1);
            alternativeLogps.push_back(std::get<0>(likeliest));
            alternativeIds.push_back(std::get<1>(likeliest));
        }

        std::vector<std::int64_t> selectRows(static_cast<std::size_t>(n)), nextTokens(static_cast<std::size_t>(n), Vocabulary::kPad);
        std::vector<double> nextAlive(static_cast<std::size_t>(n), kMinusInfinity);
        std::vector<int> parentRank(static_cast<std::size_t>(n), 0);
        for (int64_t s = 0; s < b; ++s) {
            int64_t kept = 0;
            const bool atLimit = maxLength[static_cast<std::size_t>(s)] == t;
            for (int64_t r = 0; r < width; ++r) {
                const double score = value[s * width + r];
                if (!std::isfinite(score))
                    break; // sorted: the rest are -inf too
                const std::int64_t index = indices[static_cast<std::size_t>(s * width + r)];
                const int64_t origin = index / v, token = index % v, row = s * k + origin;
                // A hypothesis ends with the end token, or (a source without one) with its token at the limit.
                if (token == end || (end < 0 && atLimit)) {
                    if (r >= k) // an ending outside the best K would end a hypothesis the beam did not keep
                        continue;
                    DecodedHypothesis h;
                    const auto history = hostLongs(tokenHistory[row]);
                    h.tokens.assign(history.begin(), history.end());
                    if (end < 0)
                        h.tokens.push_back(token); // a real token, not an end mark
                    if (logpHistory.defined())
                        h.logProbabilities = hostFloats(logpHistory[row]);
                    h.logProbabilities.push_back(logpCpu[row][token].item<float>());
                    h.logProbability = score;
                    h.score = score / lengthPenalty(t + 1, alpha);
                    h.finished = end < 0 || !atLimit || logpCpu[row].argmax().item<std::int64_t>() == end;
                    h.parents = parentHistory[static_cast<std::size_t>(row)];
                    h.parents.push_back(static_cast<int>(origin));
                    // Step u of this hypothesis was computed in row s * K + parents[u].
                    std::vector<torch::Tensor> attention, ids, logps;
                    for (std::size_t u = 0; u < h.parents.size(); ++u) {
                        const int64_t at = s * k + h.parents[u];
                        if (!attentionSteps.empty())
                            attention.push_back(attentionSteps[u][at]);
                        if (alternatives > 0) {
                            ids.push_back(alternativeIds[u][at]);
                            logps.push_back(alternativeLogps[u][at]);
                        }
                    }
                    if (!attention.empty()) {
                        const bool sameWidth = std::all_of(attention.begin(), attention.end(),
                                                           [&](const torch::Tensor& a) { return a.size(-1) == attention.front().size(-1); });
                        if (sameWidth && end >= 0)
                            h.attention = torch::stack(attention);
                        else {
                            h.stepAttention = std::move(attention);
                            h.contextStarts.assign(contextStarts.begin(), contextStarts.begin() + static_cast<std::ptrdiff_t>(h.parents.size()));
                        }
                    }
                    if (alternatives > 0) {
                        h.alternativeIds = torch::stack(ids);
                        h.alternativeLogProbabilities = torch::stack(logps);
                    }
                    finished[static_cast<std::size_t>(s)].push_back(std::move(h));
                } else if (kept < k) {
                    const auto at = static_cast<std::size_t>(s * k + kept);
                    selectRows[at] = row;
                    nextTokens[at] = token;
                    nextAlive[at] = score;
                    parentRank[at] = static_cast<int>(origin);
                    ++kept;
                }
            }
            for (int64_t j = kept; j < k; ++j) // too few alive: dead rows (-inf) that follow row 0 harmlessly
                selectRows[static_cast<std::size_t>(s * k + j)] = s * k;
            if (static_cast<int64_t>(finished[static_cast<std::size_t>(s)].size()) >= k || maxLength[static_cast<std::size_t>(s)] <= t || kept == 0)
                done[static_cast<std::size_t>(s)] = true;
        }
        if (std::all_of(done.begin(), done.end(), [](bool d) { return d; }))
            break;

        // Every row's history follows the hypothesis it extends.
        const auto rowsCpu = torch::tensor(selectRows, torch::kLong);
        const auto nextCpu = torch::tensor(nextTokens, torch::kLong);
        source.keep(rowsCpu.to(logp.device()));
        tokenHistory = torch::cat({tokenHistory.index_select(0, rowsCpu), nextCpu.unsqueeze(1)}, 1);
        const auto chosenLogp = logpCpu.index_select(0, rowsCpu).gather(1, nextCpu.unsqueeze(1)); // [N, 1]
        logpHistory = logpHistory.defined() ? torch::cat({logpHistory.index_select(0, rowsCpu), chosenLogp}, 1) : chosenLogp;
        std::vector<std::vector<int>> parents(static_cast<std::size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            parents[static_cast<std::size_t>(i)] = parentHistory[static_cast<std::size_t>(selectRows[static_cast<std::size_t>(i)])];
            parents[static_cast<std::size_t>(i)].push_back(parentRank[static_cast<std::size_t>(i)]);
        }
        parentHistory = std::move(parents);
        alive = std::move(nextAlive);
        previous = {nextCpu.to(logp.device()), std::move(nextTokens)};
    }
    for (auto& hypotheses : finished) { // the K best (several may finish at the step that completes a sentence)
        std::stable_sort(hypotheses.begin(), hypotheses.end(),
                         [](const DecodedHypothesis& a, const DecodedHypothesis& c) { return a.score > c.score; });
        if (static_cast<int64_t>(hypotheses.size()) > k)
            hypotheses.resize(static_cast<std::size_t>(k));
    }
    return finished;
}

} // namespace attnlab
