#include "core/nn/training/TranslationTask.h"

#include "core/data/TranslationText.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/results/AlignmentErrorRate.h"
#include "core/results/BleuByLength.h"
#include "core/results/BleuScore.h"
#include "core/results/ChrfScore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab {
namespace {

// Rows of a split in order of source length, so a decoded batch carries little padding.
std::vector<std::vector<std::size_t>> lengthOrderedBatches(const PairIds& ids, std::size_t size)
{
    std::vector<std::size_t> order(ids.source.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids.source[a].size() < ids.source[b].size(); });
    std::vector<std::vector<std::size_t>> batches;
    for (std::size_t i = 0; i < order.size(); i += size)
        batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(i), order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), i + size)));
    return batches;
}


} // namespace

PairBatch PairBatch::of(const PairIds& ids, const std::vector<std::size_t>& rows, const torch::Device& device)
{
    std::size_t sourceLength = 1, targetLength = 1;
    for (auto r : rows) {
        sourceLength = std::max(sourceLength, ids.source[r].size());
        targetLength = std::max(targetLength, ids.target[r].size() + 1);
    }
    const auto n = static_cast<int64_t>(rows.size());
    auto source = torch::zeros({n, static_cast<int64_t>(sourceLength)}, torch::kLong);
    auto targetIn = torch::zeros({n, static_cast<int64_t>(targetLength)}, torch::kLong);
    auto targetOut = torch::zeros({n, static_cast<int64_t>(targetLength)}, torch::kLong);
    auto s = source.accessor<int64_t, 2>();
    auto ti = targetIn.accessor<int64_t, 2>();
    auto to = targetOut.accessor<int64_t, 2>();
    for (int64_t i = 0; i < n; ++i) {
        const auto& src = ids.source[rows[static_cast<std::size_t>(i)]];
        const auto& tgt = ids.target[rows[static_cast<std::size_t>(i)]];
        for (std::size_t j = 0; j < src.size(); ++j)
            s[i][static_cast<int64_t>(j)] = src[j];
        ti[i][0] = Seq2SeqModel::kBos; // <bos> y_1 .. y_n  ->  y_1 .. y_n <eos>
        for (std::size_t j = 0; j < tgt.size(); ++j) {
            ti[i][static_cast<int64_t>(j) + 1] = tgt[j];
            to[i][static_cast<int64_t>(j)] = tgt[j];
        }
        to[i][static_cast<int64_t>(tgt.size())] = Seq2SeqModel::kEos;
    }
    PairBatch b;
    std::vector<std::int64_t> lengths, positions;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto real = static_cast<std::int64_t>(ids.target[rows[i]].size()) + 1;
        b.targetTokens += real;
        lengths.push_back(static_cast<std::int64_t>(ids.source[rows[i]].size()));
        for (std::int64_t t = 0; t < real; ++t)
            positions.push_back(static_cast<std::int64_t>(i) * static_cast<std::int64_t>(targetLength) + t);
    }
    b.sourceLengths = torch::tensor(lengths, torch::kLong);
    b.targetPositions = hostToDevice(torch::tensor(positions, torch::kLong), device, torch::kLong);
    // Queued copies: a pageable one would make every step wait for the GPU (tests/gpu, noTranslationStepWaits...).
    b.source = hostToDevice(source, device, torch::kLong);
    b.sourceMask = b.source.ne(0);
    b.targetIn = hostToDevice(targetIn, device, torch::kLong);
    b.targetOut = hostToDevice(targetOut, device, torch::kLong);
    return b;
}

torch::Tensor PairBatch::atTargetPositions(const torch::Tensor& perPosition) const
{
    const auto flat = perPosition.dim() == 2 ? perPosition.reshape({-1}) : perPosition.reshape({-1, perPosition.size(-1)});
    return flat.index_select(0, targetPositions);
}

std::vector<std::vector<std::size_t>> PairBatch::lengthGroups(const PairIds& ids, const std::vector<std::size_t>& rows)
{
    const std::size_t n = rows.size();
    if (n < 2)
        return {rows};
    // Cells of a padded group: rows x (longest source + longest target with <eos>).
    std::vector<std::size_t> order = rows;
    auto length = [&](std::size_t r) { return ids.source[r].size() + ids.target[r].size(); };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return length(a) < length(b); });
    std::vector<std::size_t> below(n + 1, 0), above(n + 1, 0); // cells of order[0, k) and of order[k, n)
    for (std::size_t k = 0, s = 0, t = 0; k < n; ++k) {
        s = std::max(s, ids.source[order[k]].size());
        t = std::max(t, ids.target[order[k]].size() + 1);
        below[k + 1] = (k + 1) * (s + t);
    }
    for (std::size_t k = n, s = 0, t = 0; k-- > 0;) {
        s = std::max(s, ids.source[order[k]].size());
        t = std::max(t, ids.target[order[k]].size() + 1);
        above[k] = (n - k) * (s + t);
    }
    std::size_t split = 0, best = above[0];
    for (std::size_t k = 1; k < n; ++k)
        if (below[k] + above[k] < best) {
            best = below[k] + above[k];
            split = k;
        }
    if (split == 0 || 5 * best > 4 * above[0])
        return {rows};
    return {std::vector<std::size_t>(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(split)),
            std::vector<std::size_t>(order.begin() + static_cast<std::ptrdiff_t>(split), order.end())};
}

TranslationTask::TranslationTask(std::shared_ptr<Seq2SeqModel> model, const TranslationDataset& dataset, Vocabulary source,
                                 Vocabulary target, const torch::Device& device, const TrainConfig& config)
    : model_(std::move(model)), device_(device), dataset_(dataset), sourceVocabulary_(std::move(source)),
      targetVocabulary_(std::move(target)), config_(config)
{
    train_ = idsOf(dataset.train);
    dev_ = idsOf(dataset.dev);
    test_ = idsOf(dataset.test);
    dataset_.train.clear();
    dataset_.train.shrink_to_fit(); // the dataset's own notes are the caller's to report (TrainCommand, the window)
}

PairIds TranslationTask::idsOf(const std::vector<TranslationPair>& pairs) const
{
    PairIds ids;
    for (const auto& p : pairs) {
        std::vector<std::int64_t> s, t;
        for (const auto& w : p.source)
            s.push_back(sourceVocabulary_.id(w));
        for (const auto& w : p.target)
            t.push_back(targetVocabulary_.id(w));
        ids.source.push_back(std::move(s));
        ids.target.push_back(std::move(t));
    }
    return ids;
}

TrainingTask::Step TranslationTask::trainStep(std::mt19937_64& rng, int batchSize)
{
    std::uniform_int_distribution<std::size_t> pick(0, train_.source.size() - 1);
    std::vector<std::size_t> rows(static_cast<std::size_t>(batchSize));
    for (auto& r : rows)
        r = pick(rng);
    // On the CPU the encoder and decoder run per length group (less padding; the pairs and the loss are the
    // same); on a GPU one wide batch is faster than two narrower ones. Scheduled feeding draws its coin per
    // pass, so with teacher_forcing < 1 the batch stays whole.
    const auto groups = device_.is_cpu() && config_.teacherForcing >= 1.0 ? PairBatch::lengthGroups(train_, rows)
                                                                           : std::vector<std::vector<std::size_t>>{rows};
    // The output layer and the loss at the real target positions only: a batch padded to its longest sentence is
    // about half padding, and the output layer (F x V, V in the thousands) is most of a step's arithmetic. The
    // loss is the same as over every position with padding ignored.
    std::vector<torch::Tensor> real, expectedParts;
    std::int64_t targetTokens = 0;
    for (const auto& group : groups) {
        const auto batch = PairBatch::of(train_, group, device_);
        const auto features = model_->features(batch.source, batch.sourceMask, batch.sourceLengths, batch.targetIn, config_.teacherForcing);
        real.push_back(batch.atTargetPositions(features));
        expectedParts.push_back(batch.atTargetPositions(batch.targetOut));
        targetTokens += batch.targetTokens;
    }
    const auto logits = model_->project(real.size() == 1 ? real.front() : torch::cat(real));
    const auto expected = expectedParts.size() == 1 ? expectedParts.front() : torch::cat(expectedParts);
    Step step;
    step.loss = torch::nn::functional::cross_entropy(
        logits, expected, torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(config_.labelSmoothing));
    step.trainMetric = logits.argmax(1).eq(expected).sum();
    step.count = targetTokens; // from the host's lengths: no wait for a GPU inside the step
    return step;
}

TrainingTask::Evaluation TranslationTask::evaluate(bool test)
{
    torch::NoGradGuard noGrad;
    model_->eval();
    const PairIds& ids = test ? test_ : dev_;
    const auto& pairs = test ? dataset_.test : dataset_.dev;
    double lossSum = 0.0;
    std::int64_t tokens = 0, correct = 0, exact = 0;
    std::vector<std::string> hypotheses(pairs.size()), references, tokenHypotheses(pairs.size()), tokenReferences;
    AlignmentErrorRate aer;
    for (const auto& rows : lengthOrderedBatches(ids, kDecodeBatch)) {
        const auto batch = PairBatch::of(ids, rows, device_);
        // Teacher-forced: the loss, perplexity and token accuracy at the real target positions, and where the
        // dataset has a gold alignment, the attention read as one (the last cross-attention layer, averaged over
        // its heads, argmax per row).
        torch::Tensor logits, alignment;
        if (dataset_.goldAlignment && model_->attentionLayers() > 0) {
            const auto forced = model_->forced(batch.source, batch.sourceMask, batch.targetIn);
            logits = batch.atTargetPositions(forced.logits);
            alignment = forced.cross.back().mean(1).to(torch::kCPU, torch::kFloat).contiguous(); // [B, T, S]
        } else {
            logits = model_->project(batch.atTargetPositions(model_->features(batch.source, batch.sourceMask, batch.sourceLengths, batch.targetIn, 1.0)));
        }
        const auto expected = batch.atTargetPositions(batch.targetOut);
        lossSum += torch::nn::functional::cross_entropy(logits, expected, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                       .item<double>();
        tokens += batch.targetTokens;
        correct += logits.argmax(1).eq(expected).sum().item<std::int64_t>();
        // Decoded as the run decodes.
        const auto decoded = SequenceDecoder::decode(*model_, batch.source, batch.sourceMask, decoding());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto row = rows[i];
            std::vector<std::string> words;
            for (auto id : decoded[i].front().tokens)
                words.push_back(targetVocabulary_.token(id));
            hypotheses[row] = TranslationText::detokenize(words, dataset_.tokenizer);
            tokenHypotheses[row] = TranslationText::joined(TranslationText::words(words, dataset_.tokenizer), true);
            exact += words == pairs[row].target;
            if (alignment.defined()) {
                const int targetLength = static_cast<int>(pairs[row].target.size());
                const int sourceLength = static_cast<int>(pairs[row].source.size());
                std::vector<float> rowsOfMap = hostFloats(alignment[static_cast<int64_t>(i)].slice(0, 0, targetLength).slice(1, 0, sourceLength));
                std::vector<AlignmentLink> gold;
                std::vector<bool> linked(static_cast<std::size_t>(targetLength), false);
                for (const auto& [s, t] : pairs[row].alignment) {
                    gold.push_back({s, t});
                    linked[static_cast<std::size_t>(t)] = true;
                }
                // Only the target words the gold alignment links (the dates' "-" follow from the format, not
                // from a source word): attention elsewhere is neither right nor wrong.
                std::vector<AlignmentLink> predicted;
                for (const auto& link : AlignmentErrorRate::argmaxLinks(rowsOfMap, targetLength, sourceLength))
                    if (linked[static_cast<std::size_t>(link.target)])
                        predicted.push_back(link);
                aer.add(predicted, gold);
            }
        }
    }
    for (const auto& p : pairs) {
        references.push_back(p.targetText);
        tokenReferences.push_back(TranslationText::joined(TranslationText::words(p.target, dataset_.tokenizer), true));
    }
    const auto bleu = BleuScore().corpusScore(hypotheses, references);
    BleuOptions tokenised; // as torchtext's bleu_score over lowercased tokens (bentrevett): no further splitting
    tokenised.tokenize = "none";
    const auto bleuTokens = BleuScore(tokenised).corpusScore(tokenHypotheses, tokenReferences);
    const auto chrf = ChrfScore().corpusScore(hypotheses, references);
    const double loss = tokens ? lossSum / static_cast<double>(tokens) : 0.0;
    Evaluation e;
    e.metrics = {{"loss", loss},
                 {"perplexity", std::exp(loss)},
                 {"token_accuracy", tokens ? static_cast<double>(correct) / static_cast<double>(tokens) : 0.0},
                 {"bleu", bleu.score},
                 {"chrf", chrf.score},
                 {"bleu_tokenized", bleuTokens.score}};
    if (dataset_.goldAlignment) {
        e.metrics.push_back({"exact_match", pairs.empty() ? 0.0 : static_cast<double>(exact) / static_cast<double>(pairs.size())});
        if (aer.sentences() > 0)
            e.metrics.push_back({"aer", aer.value()});
    }
    if (test) { // Bahdanau et al.'s Figure 2: the test BLEU by source length (BleuByLength's buckets), for Compare
        std::vector<int> lengths;
        std::vector<bool> same;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            lengths.push_back(static_cast<int>(pairs[i].source.size()));
            same.push_back(false); // not drawn; the exact match is the whole split's above
        }
        for (const auto& row : BleuByLength::score(lengths, hypotheses, references, same, BleuByLength::defaults()))
            if (row.low > 0)
                e.metrics.push_back({"bleu_by_length." + std::to_string(row.low), row.bleu});
    }
    e.score = bleu.score;
    return e;
}

std::vector<AttentionSnapshot> TranslationTask::attention(int step)
{
    const auto& probe = dataset_.probe;
    if (probe.source.empty() || probe.target.empty() || model_->attentionLayers() == 0)
        return {};
    torch::NoGradGuard noGrad;
    const bool training = model_->is_training();
    model_->eval();
    PairIds ids;
    ids.source.push_back(idsOf({probe}).source.front());
    ids.target.push_back(idsOf({probe}).target.front());
    const auto batch = PairBatch::of(ids, {0}, device_);
    const auto forced = model_->forced(batch.source, batch.sourceMask, batch.targetIn);
    const auto sourceLength = static_cast<int64_t>(probe.source.size()), targetLength = static_cast<int64_t>(probe.target.size()) + 1;
    AttentionSnapshot snapshot;
    snapshot.step = step;
    snapshot.probeLabel = "probe pair";
    snapshot.tokens = probe.source;
    snapshot.targetTokens = probe.target;
    snapshot.targetTokens.push_back("<eos>");
    snapshot.goldAlignment = probe.alignment;
    snapshot.crossMaps = Seq2SeqModel::mapsOfFirst(forced.cross, targetLength, sourceLength, false);
    snapshot.maps = Seq2SeqModel::mapsOfFirst(forced.encoderSelf, sourceLength, sourceLength, true);
    snapshot.decoderMaps = Seq2SeqModel::mapsOfFirst(forced.decoderSelf, targetLength, targetLength, true);
    auto greedy = decoding(); // the probe's translation as it is now, greedy: one hypothesis
    greedy.beamSize = 1;
    const auto decoded = SequenceDecoder::decode(*model_, batch.source, batch.sourceMask, greedy);
    std::vector<std::string> words;
    for (auto id : decoded.front().front().tokens)
        words.push_back(targetVocabulary_.token(id));
    snapshot.translation = TranslationText::detokenize(words, dataset_.tokenizer);
    if (training)
        model_->train();
    return {snapshot};
}

SequenceDecoder::Settings TranslationTask::decodingOf(const TrainConfig& config)
{
    return {config.beamSize, config.lengthPenalty, config.model.maxLength};
}

std::string TranslationTask::checkpointMetadata() const
{
    auto tokensOf = [](const Vocabulary& v) {
        nlohmann::json tokens = nlohmann::json::array();
        for (std::int64_t id = 0; id < v.size(); ++id)
            tokens.push_back(v.token(id));
        return tokens;
    };
    return nlohmann::json{{"task", "translation"},
                          {"source_vocabulary", tokensOf(sourceVocabulary_)},
                          {"target_vocabulary", tokensOf(targetVocabulary_)},
                          {"tokenizer", dataset_.tokenizer},
                          {"source_subwords", dataset_.sourceSubwords},
                          {"target_subwords", dataset_.targetSubwords},
                          {"lowercase", dataset_.lowercase},
                          {"source_language", dataset_.sourceLanguage},
                          {"target_language", dataset_.targetLanguage},
                          {"gold_alignment", dataset_.goldAlignment},
                          {"beam_size", config_.beamSize},
                          {"length_penalty", config_.lengthPenalty},
                          {"max_length", config_.model.maxLength}}
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
