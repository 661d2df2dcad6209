#include "core/nn/training/LanguageModelTask.h"

#include "core/data/LanguageModelText.h"
#include "core/data/SubwordModel.h"
#include "core/nn/training/InductionScores.h"
#include "core/nn/training/TextGeneration.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <stdexcept>

namespace attnlab {
namespace {

torch::Tensor streamOf(const std::vector<std::int32_t>& ids, const torch::Device& device)
{
    return torch::from_blob(const_cast<std::int32_t*>(ids.data()), {static_cast<std::int64_t>(ids.size())}, torch::kInt)
        .to(torch::kLong)
        .to(device);
}

} // namespace

LanguageModelTask::LanguageModelTask(std::shared_ptr<LanguageModel> model, const LanguageModelDataset& dataset,
                                     const torch::Device& device, const TrainConfig& config)
    : model_(std::move(model)), dataset_(dataset), device_(device), config_(config)
{
    // A dataset of blocks trains on whole blocks: a window of block - 1 tokens predicts the block's last block - 1.
    window_ = dataset.block > 0 ? dataset.block - 1 : config.model.context;
    if (window_ > config.model.context)
        throw std::invalid_argument("context: the dataset's blocks need " + std::to_string(window_) + " tokens of context (got " +
                                    std::to_string(config.model.context) + ")");
    if (static_cast<std::int64_t>(dataset.train.size()) < window_ + 1)
        throw std::invalid_argument("context: the training text has " + std::to_string(dataset.train.size()) +
                                    " tokens, fewer than one window of " + std::to_string(window_) + " and the token after it");
    train_ = streamOf(dataset.train, device);
    dataset_.train.clear(); // on the device now
    dataset_.train.shrink_to_fit();
}

std::int64_t LanguageModelTask::trainSize() const
{
    // An epoch: as many windows as there are tokens to predict, each read once on average.
    return std::max<std::int64_t>(1, train_.size(0) / window_);
}

TrainingTask::Step LanguageModelTask::trainStep(std::mt19937_64& rng, int batchSize)
{
    const std::int64_t n = train_.size(0);
    std::vector<std::int64_t> starts(static_cast<std::size_t>(batchSize));
    if (dataset_.block > 0) {
        const std::int64_t blocks = n / dataset_.block;
        for (auto& s : starts)
            s = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(blocks)) * dataset_.block;
    } else {
        for (auto& s : starts)
            s = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n - window_));
    }
    // [B, window + 1] indices: row b reads start_b .. start_b + window
    const auto offsets = torch::arange(window_ + 1, torch::TensorOptions().dtype(torch::kLong).device(device_));
    const auto index = torch::tensor(starts, torch::kLong).to(device_).unsqueeze(1) + offsets.unsqueeze(0);
    const auto rows = train_.index_select(0, index.reshape({-1})).view({batchSize, window_ + 1});
    const auto input = rows.narrow(1, 0, window_), target = rows.narrow(1, 1, window_);
    const auto logits = model_->forward(input);
    const auto flat = logits.reshape({-1, logits.size(-1)});
    Step step;
    step.loss = torch::nn::functional::cross_entropy(flat, target.reshape({-1}));
    step.trainMetric = flat.argmax(-1).eq(target.reshape({-1})).sum();
    step.count = static_cast<std::int64_t>(batchSize) * window_;
    return step;
}

TrainingTask::Evaluation LanguageModelTask::evaluate(bool test)
{
    torch::NoGradGuard noGrad;
    model_->eval();
    const auto& split = test ? dataset_.test : dataset_.dev;
    const std::int64_t n = static_cast<std::int64_t>(split.size());
    const auto stream = streamOf(split, device_);
    double nll = 0.0, correct = 0.0, tokens = 0.0;
    double halfNll[2] = {0.0, 0.0}, halfTokens[2] = {0.0, 0.0};
    const int half = dataset_.block / 2; // first_half_loss: the targets before it; repeat_loss: [repeatFrom, repeatTo)
    // A repeat task read by a model with attention: which heads copy (the induction and previous-token scores).
    std::optional<InductionScores> heads;
    if (dataset_.repeatTo > 0 && dataset_.block > 0 && model_->attentionLayers() > 0)
        heads.emplace(dataset_.repeatFrom, dataset_.repeatTo);
    // Consecutive windows: starts 0, w, 2w, ...; each scores its w (the last one fewer) next tokens.
    std::vector<std::int64_t> starts;
    for (std::int64_t s = 0; s + 1 < n; s += dataset_.block > 0 ? dataset_.block : window_)
        starts.push_back(s);
    for (std::size_t first = 0; first < starts.size();) {
        // Rows of one length at a time: the full windows, then the last, shorter one on its own.
        std::size_t last = std::min(starts.size(), first + kEvaluationRows);
        const std::int64_t length = std::min<std::int64_t>(window_, n - 1 - starts[first]);
        while (last > first + 1 && std::min<std::int64_t>(window_, n - 1 - starts[last - 1]) != length)
            --last;
        std::vector<torch::Tensor> rows;
        for (std::size_t i = first; i < last; ++i)
            rows.push_back(stream.narrow(0, starts[i], length + 1));
        const auto batch = torch::stack(rows);
        const auto input = batch.narrow(1, 0, length), target = batch.narrow(1, 1, length);
        const bool scoreHeads = heads && length == window_;
        std::vector<torch::Tensor> maps;
        const auto logits = model_->forward(input, scoreHeads ? &maps : nullptr).to(torch::kFloat);
        if (scoreHeads)
            heads->add(batch, maps);
        const auto losses = torch::nn::functional::cross_entropy(
                                logits.reshape({-1, logits.size(-1)}), target.reshape({-1}),
                                torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone))
                                .view({-1, length})
                                .to(torch::kDouble);
        nll += losses.sum().item<double>();
        correct += logits.argmax(-1).eq(target).sum().item<double>();
        tokens += static_cast<double>(losses.numel());
        if (dataset_.repeatTo > 0 && length == window_) { // position p predicts block token p + 1
            const auto target = torch::arange(1, length + 1, torch::TensorOptions().dtype(torch::kLong).device(losses.device()));
            const auto repeated = target.ge(dataset_.repeatFrom).logical_and(target.lt(dataset_.repeatTo));
            const auto first = target.lt(half);
            halfNll[1] += losses.index({torch::indexing::Slice(), repeated}).sum().item<double>();
            halfNll[0] += losses.index({torch::indexing::Slice(), first}).sum().item<double>();
            const double rowsNow = static_cast<double>(losses.size(0));
            halfTokens[1] += rowsNow * repeated.sum().item<double>();
            halfTokens[0] += rowsNow * first.sum().item<double>();
        }
        first = last;
    }
    Evaluation e;
    const double loss = tokens > 0 ? nll / tokens : 0.0;
    e.metrics = {{"loss", loss}, {"bits_per_token", loss / std::log(2.0)}, {"perplexity", std::exp(loss)},
                 {"accuracy", tokens > 0 ? correct / tokens : 0.0}};
    if (halfTokens[0] > 0 && halfTokens[1] > 0) {
        e.metrics.emplace_back("first_half_loss", halfNll[0] / halfTokens[0]);
        e.metrics.emplace_back("repeat_loss", halfNll[1] / halfTokens[1]);
    }
    if (heads)
        for (auto& m : heads->metrics())
            e.metrics.push_back(std::move(m));
    e.score = -loss;
    return e;
}

std::vector<AttentionSnapshot> LanguageModelTask::attention(int step)
{
    if (config_.sampleTokens <= 0)
        return {};
    std::vector<std::int32_t> prompt;
    try {
        const auto pieces = dataset_.subwords.empty() ? nullptr
                                                      : std::make_unique<SubwordModel>(SubwordModel::fromText(dataset_.subwords, dataset_.subwordKind, dataset_.name));
        prompt = LanguageModelText::encode(LanguageModelText::split(dataset_.prompt, dataset_.unit, pieces.get()), dataset_.vocabulary, dataset_.unit);
    } catch (const std::invalid_argument&) {
    }
    if (prompt.empty())
        prompt = {dataset_.dev.empty() ? 0 : dataset_.dev.front()};
    TextGeneration::Request request;
    request.prompt = prompt;
    request.sampling.seed = config_.seed;
    request.sampling.tokens = config_.sampleTokens;
    request.alternatives = 0;
    request.attention = false;
    const auto written = TextGeneration::generate(*model_, request, dataset_.vocabulary, dataset_.unit, device_);

    AttentionSnapshot snapshot;
    snapshot.step = step;
    snapshot.sample = written.prompt + written.text;
    snapshot.probeLabel = "sample from \"" + written.prompt + "\"";
    // The attention of the sample's first tokens, one forward pass over them.
    std::vector<std::int64_t> ids(prompt.begin(), prompt.end());
    std::vector<std::string> tokens = written.promptTokens;
    for (const auto& s : written.steps) {
        ids.push_back(s.id);
        tokens.push_back(s.token);
    }
    const auto length = std::min<std::int64_t>(static_cast<std::int64_t>(ids.size()), window_);
    ids.resize(static_cast<std::size_t>(length));
    tokens.resize(static_cast<std::size_t>(length));
    for (auto& t : tokens)
        t = t == "\n" ? "\\n" : t;
    snapshot.tokens = tokens;
    if (model_->attentionLayers() > 0) {
        torch::NoGradGuard noGrad;
        model_->eval();
        std::vector<torch::Tensor> maps;
        model_->forward(torch::tensor(ids, torch::kLong).to(device_).unsqueeze(0), &maps);
        for (std::size_t l = 0; l < maps.size(); ++l) {
            const auto layer = maps[l].to(torch::kFloat).to(torch::kCPU).contiguous(); // [1, H, T, T]
            for (std::int64_t h = 0; h < layer.size(1); ++h) {
                AttentionMap map;
                map.layer = static_cast<int>(l);
                map.head = static_cast<int>(h);
                map.size = static_cast<int>(length);
                const auto w = layer[0][h].contiguous();
                map.weights.assign(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
                snapshot.maps.push_back(std::move(map));
            }
        }
    }
    model_->train();
    return {snapshot};
}

std::string LanguageModelTask::checkpointMetadata() const
{
    nlohmann::json meta{{"task", "language_model"},
                        {"vocabulary", dataset_.vocabulary},
                        {"unit", dataset_.unit},
                        {"block", dataset_.block},
                        {"prompt", dataset_.prompt},
                        {"dataset_name", dataset_.name}};
    if (!dataset_.subwords.empty()) { // pieces: the SentencePiece model that splits a prompt as the text was split
        meta["subwords"] = dataset_.subwords;
        meta["subword_kind"] = dataset_.subwordKind;
    }
    return meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
