#include "core/training/ModelExplainer.h"

#include "core/nn/layers/AttentionInputRecorder.h"

#include "core/analysis/AttentionRollout.h"
#include "core/data/BatchBuilder.h"
#include "core/data/Tokenizer.h"
#include "core/data/Vocabulary.h"
#include "core/nn/layers/AttentionPermutation.h"
#include "core/nn/layers/PositionEncoding.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ModelCheckpoint.h"
#include "core/nn/training/TokenAttributor.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

namespace attnlab {

struct ModelExplainer::Impl {
    TrainConfig config;
    std::shared_ptr<SequenceClassifier> model;
    Vocabulary vocabulary;
    std::vector<std::string> classes;
    Tokenizer tokenizer;
    int maxLength = 0;
    std::string weights;
    int step = 0;
    mutable std::mutex mutex; // one forward at a time: recording attention is state on the module

    // The one way a token list becomes the model's input: cut at the trained length, out-of-vocabulary
    // words (and "<unk>" itself, which the vocabulary holds at that id) as Vocabulary::kUnknown.
    std::vector<std::int64_t> idsOf(const std::vector<std::string>& tokens) const
    {
        std::vector<std::int64_t> ids;
        for (const auto& token : tokens) {
            if (maxLength > 0 && ids.size() == static_cast<std::size_t>(maxLength))
                break;
            ids.push_back(vocabulary.id(token));
        }
        return ids;
    }
};

ModelExplainer::ModelExplainer(const CheckpointRef& checkpoint) : impl_(std::make_unique<Impl>())
{
    auto opened = ModelCheckpoint::open(checkpoint);
    const std::string where = "checkpoint " + checkpoint.path;
    try {
        const auto meta = nlohmann::json::parse(opened.metadataJson);
        if (meta.at("format").get<int>() > ModelCheckpoint::kFormat)
            throw std::runtime_error("written by a newer Attention Lab (format " + meta.at("format").dump() + ")");
        const auto& task = meta.at("task");
        if (task.at("task") == "translation")
            throw std::runtime_error("a translation model: attnlab-cli translate --run N --text \"...\" shows its alignment");
        if (task.at("task") != "text")
            throw std::runtime_error("a time-series model: it explains windows of its series, not typed text "
                                     "(its attention over time is in the run's stored snapshots)");
        impl_->config = TrainConfig::fromJson(meta.at("config").dump());
        // A `cnn` written before it followed the thesis has no input length: max over time, as trained.
        if (impl_->config.model.model == "cnn" && impl_->config.model.inputLength == 0)
            impl_->config.model.model = "cnn-max-over-time";
        const auto& sizes = meta.at("sizes");
        impl_->config.model.vocabularySize = sizes.at("vocabulary_size").get<int>();
        impl_->config.model.numClasses = sizes.at("num_classes").get<int>();
        impl_->config.model.embeddingDim = sizes.at("embedding_dim").get<int>();
        impl_->weights = meta.at("kind").get<std::string>();
        impl_->step = meta.at("step").get<int>();
        const auto tokens = task.at("vocabulary").get<std::vector<std::string>>();
        for (std::size_t id = 2; id < tokens.size(); ++id) // 0 and 1 are <pad> and <unk> in every vocabulary
            impl_->vocabulary.add(tokens[id]);
        if (impl_->vocabulary.size() != impl_->config.model.vocabularySize)
            throw std::runtime_error("its vocabulary has " + std::to_string(impl_->vocabulary.size()) +
                                     " entries, its model " + std::to_string(impl_->config.model.vocabularySize));
        impl_->classes = task.at("classes").get<std::vector<std::string>>();
        impl_->tokenizer = Tokenizer::forRun(task.at("tokenizer").get<std::string>(), task.at("lowercase").get<bool>(),
                                             impl_->vocabulary);
        impl_->maxLength = task.at("max_length").get<int>();
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(where + ": its settings are incomplete (" + e.what() + ")");
    } catch (const std::exception& e) {
        throw std::runtime_error(where + ": " + e.what());
    }
    impl_->model = ModelFactory::create(impl_->config.model);
    ModelCheckpoint::loadInto(*impl_->model, opened, checkpoint, impl_->config.model.model);
    impl_->model->to(torch::kCPU);
    impl_->model->eval();
}

ModelExplainer::~ModelExplainer() = default;

const TrainConfig& ModelExplainer::config() const { return impl_->config; }
const std::vector<std::string>& ModelExplainer::classNames() const { return impl_->classes; }
std::string ModelExplainer::weights() const { return impl_->weights; }
int ModelExplainer::step() const { return impl_->step; }

ModelExplanation ModelExplainer::explain(const std::string& text) const
{
    ModelExplanation out;
    out.text = text;
    out.classNames = impl_->classes;
    out.maxLength = impl_->maxLength;
    out.weights = impl_->weights;
    out.step = impl_->step;
    out.attention.step = impl_->step;
    out.tokens = impl_->tokenizer.tokenize(text);
    if (impl_->maxLength > 0 && out.tokens.size() > static_cast<std::size_t>(impl_->maxLength)) {
        out.truncatedTokens = static_cast<int>(out.tokens.size()) - impl_->maxLength;
        out.tokens.resize(static_cast<std::size_t>(impl_->maxLength));
    }
    if (out.tokens.empty())
        return out;
    const auto ids = impl_->idsOf(out.tokens);
    for (const auto id : ids)
        out.unknown.push_back(id == Vocabulary::kUnknown);
    out.attention.tokens = out.tokens;
    const auto batch = TensorBatch::from(BatchBuilder::pad({ids}, {}), torch::kCPU);
    torch::Tensor logits;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        out.attention.maps = impl_->model->attentionOfFirst(batch.ids, batch.mask, &out.attention.pooling, &logits);
        out.gates = impl_->model->gates(batch.ids);
    }
    if (!out.attention.pooling.empty())
        out.attention.poolingName = impl_->model->poolingName();
    const auto probabilities = torch::softmax(logits[0].to(torch::kDouble), 0).contiguous();
    out.probabilities.assign(probabilities.data_ptr<double>(), probabilities.data_ptr<double>() + probabilities.numel());
    out.predicted = static_cast<int>(probabilities.argmax().item<std::int64_t>());
    out.rollout = AttentionRollout::of(out.attention.maps);
    return out;
}

AttentionStepByStep ModelExplainer::stepByStep(const std::string& text, int layer, int head, int query) const
{
    auto tokens = impl_->tokenizer.tokenize(text);
    if (impl_->maxLength > 0 && tokens.size() > static_cast<std::size_t>(impl_->maxLength))
        tokens.resize(static_cast<std::size_t>(impl_->maxLength));
    if (tokens.empty())
        throw std::invalid_argument("text: it has no tokens");
    if (query < 0 || static_cast<std::size_t>(query) >= tokens.size())
        throw std::invalid_argument("query: token " + std::to_string(query) + " is past the sentence's " + std::to_string(tokens.size()) +
                                    " tokens (0 is the first)");
    const auto batch = TensorBatch::from(BatchBuilder::pad({impl_->idsOf(tokens)}, {}), torch::kCPU);
    std::lock_guard<std::mutex> lock(impl_->mutex);
    AttentionInputRecorder recorder;
    impl_->model->attentionOfFirst(batch.ids, batch.mask);
    auto steps = recorder.stepByStep(layer, head, query, impl_->config.model.model);
    steps.tokens = tokens;
    return steps;
}

std::vector<TokenAttribution> ModelExplainer::attribute(const std::string& text, const std::vector<std::string>& methods,
                                                        const AttributionOptions& options) const
{
    // Tokenised as explain() does, so the scores line up with its tokens.
    return attributeTokens(impl_->tokenizer.tokenize(text), methods, options);
}

std::vector<TokenAttribution> ModelExplainer::attributeTokens(std::vector<std::string> tokens,
                                                              const std::vector<std::string>& methods,
                                                              const AttributionOptions& options) const
{
    const std::vector<std::string>& chosen = methods.empty() ? AttributionOptions::methods() : methods;
    for (const auto& m : chosen)
        if (!AttributionOptions::known(m))
            AttributionOptions::parseList(m); // throws, naming the method and the known ones
    if (const std::string problem = options.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    if (impl_->maxLength > 0 && tokens.size() > static_cast<std::size_t>(impl_->maxLength))
        tokens.resize(static_cast<std::size_t>(impl_->maxLength));
    std::vector<TokenAttribution> out;
    if (tokens.empty())
        return out;
    const auto batch = TensorBatch::from(BatchBuilder::pad({impl_->idsOf(tokens)}, {}), torch::kCPU);
    std::lock_guard<std::mutex> lock(impl_->mutex);
    TokenAttributor attributor(*impl_->model, batch.ids, batch.mask, Vocabulary::kUnknown);
    for (const auto& m : chosen) {
        out.push_back(attributor.run(m, options));
        out.back().tokens = tokens;
    }
    return out;
}

std::vector<std::vector<double>> ModelExplainer::probabilitiesOf(const std::vector<std::vector<std::string>>& inputs) const
{
    std::vector<std::vector<double>> out;
    if (inputs.empty())
        return out;
    std::vector<std::vector<std::int64_t>> ids;
    for (const auto& tokens : inputs) {
        auto row = impl_->idsOf(tokens);
        if (row.empty())
            throw std::invalid_argument("probabilitiesOf: an input without tokens");
        ids.push_back(std::move(row));
    }
    const auto batch = TensorBatch::from(BatchBuilder::pad(ids, {}), torch::kCPU);
    torch::NoGradGuard noGrad;
    torch::Tensor p;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        p = torch::softmax(impl_->model->forward(batch.ids, batch.mask).to(torch::kDouble), 1).contiguous();
    }
    const auto classes = p.size(1);
    for (std::int64_t row = 0; row < p.size(0); ++row)
        out.emplace_back(p.data_ptr<double>() + row * classes, p.data_ptr<double>() + (row + 1) * classes);
    return out;
}

std::vector<std::vector<double>> ModelExplainer::probabilitiesWithAttentionPermuted(
    const std::vector<std::string>& tokens, const std::vector<std::vector<int>>& orders) const
{
    std::vector<std::vector<double>> out;
    if (orders.empty())
        return out;
    const auto row = impl_->idsOf(tokens);
    std::vector<std::int64_t> flat;
    for (const auto& order : orders) {
        std::vector<bool> seen(row.size(), false);
        for (const int j : order) {
            if (j < 0 || static_cast<std::size_t>(j) >= row.size() || seen[static_cast<std::size_t>(j)])
                throw std::invalid_argument("probabilitiesWithAttentionPermuted: an order that is not a permutation of the " +
                                            std::to_string(row.size()) + " tokens");
            seen[static_cast<std::size_t>(j)] = true;
        }
        if (order.size() != row.size())
            throw std::invalid_argument("probabilitiesWithAttentionPermuted: an order of " + std::to_string(order.size()) +
                                        " positions for " + std::to_string(row.size()) + " tokens");
        flat.insert(flat.end(), order.begin(), order.end());
    }
    const auto count = static_cast<std::int64_t>(orders.size()), length = static_cast<std::int64_t>(row.size());
    const auto ids = torch::tensor(row, torch::kLong).unsqueeze(0).expand({count, length}).contiguous();
    const auto mask = torch::ones({count, length}, torch::kBool);
    torch::NoGradGuard noGrad;
    torch::Tensor p;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        const AttentionPermutation permuted(torch::tensor(flat, torch::kLong).view({count, length}));
        p = torch::softmax(impl_->model->forward(ids, mask).to(torch::kDouble), 1).contiguous();
    }
    const auto classes = p.size(1);
    for (std::int64_t r = 0; r < p.size(0); ++r)
        out.emplace_back(p.data_ptr<double>() + r * classes, p.data_ptr<double>() + (r + 1) * classes);
    return out;
}

std::vector<ExamplePrediction> ModelExplainer::predict(const std::vector<TextExample>& examples) const
{
    const BatchBuilder builder(examples, impl_->vocabulary, impl_->maxLength);
    std::vector<ExamplePrediction> out;
    out.reserve(examples.size());
    constexpr std::size_t kBatch = 128;
    torch::NoGradGuard noGrad;
    for (std::size_t first = 0; first < examples.size(); first += kBatch) {
        std::vector<std::size_t> indices;
        for (std::size_t i = first; i < std::min(examples.size(), first + kBatch); ++i)
            indices.push_back(i);
        const auto batch = TensorBatch::from(builder.batchOf(indices), torch::kCPU);
        torch::Tensor probabilities;
        {
            std::lock_guard<std::mutex> lock(impl_->mutex);
            probabilities = torch::softmax(impl_->model->forward(batch.ids, batch.mask).to(torch::kFloat), 1).contiguous();
        }
        const auto classes = probabilities.size(1);
        const auto predicted = probabilities.argmax(1).contiguous();
        for (std::size_t row = 0; row < indices.size(); ++row) {
            ExamplePrediction p;
            p.gold = examples[indices[row]].label;
            p.predicted = static_cast<int>(predicted[static_cast<std::int64_t>(row)].item<std::int64_t>());
            const float* values = probabilities.data_ptr<float>() + static_cast<std::int64_t>(row) * classes;
            p.probabilities.assign(values, values + classes);
            out.push_back(std::move(p));
        }
    }
    return out;
}

namespace {

std::vector<std::string> numbered(int from, int count)
{
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i)
        out.push_back(std::to_string(from + i));
    return out;
}

PositionView matrixView(std::string name, std::string about, std::string rowLabel, std::vector<std::string> rows,
                        std::string columnLabel, const torch::Tensor& matrix)
{
    PositionView v;
    v.name = std::move(name);
    v.about = std::move(about);
    v.rowLabel = std::move(rowLabel);
    v.columnLabel = std::move(columnLabel);
    v.rows = std::move(rows);
    const auto m = matrix.detach().to(torch::kCPU, torch::kFloat).contiguous();
    v.columns = numbered(0, static_cast<int>(m.size(1)));
    v.values = hostFloats(m);
    return v;
}

} // namespace

std::vector<PositionView> ModelExplainer::positionViews(int length) const
{
    const std::string& technique = impl_->config.model.position;
    const auto options = torch::TensorOptions().dtype(torch::kFloat);
    const int dModel = impl_->config.model.inputDim();
    constexpr int kDimensions = 64; // columns shown of a d_model-wide table
    std::vector<PositionView> views;
    torch::NoGradGuard noGrad;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    const auto parameters = impl_->model->named_parameters(/*recurse=*/true);
    if (technique == "sinusoidal") {
        const auto pe = PositionEncoding::sinusoidal(length, dModel, options).slice(1, 0, kDimensions);
        views.push_back(matrixView("sinusoidal encodings",
                                   "PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...), added to the word vectors",
                                   "position", numbered(0, length), "dimension", pe));
    } else if (technique == "learned") {
        if (const auto* table = parameters.find("positions.learned_positions.weight"))
            views.push_back(matrixView("learned position vectors",
                                       "one trained vector per position, added to the word vectors", "position",
                                       numbered(0, length), "dimension",
                                       table->slice(0, 0, length).slice(1, 0, kDimensions)));
    } else if (technique == "rpr") {
        const int k = impl_->config.model.rprClip;
        std::vector<std::string> distances;
        for (int d = -k; d <= k; ++d)
            distances.push_back((d > 0 ? "+" : "") + std::to_string(d));
        for (const auto& item : parameters) {
            const std::string& key = item.key();
            const bool keys = key.size() > 9 && key.compare(key.size() - 9, 9, ".rel_keys") == 0;
            const bool values = key.size() > 11 && key.compare(key.size() - 11, 11, ".rel_values") == 0;
            if (!keys && !values)
                continue;
            // "attention0.rel_keys" -> layer 1
            const auto digits = key.find_first_of("0123456789");
            const int layer = digits == std::string::npos ? 0 : std::atoi(key.c_str() + digits);
            views.push_back(matrixView(std::string("RPR ") + (keys ? "key" : "value") + " table (layer " +
                                           std::to_string(layer + 1) + ")",
                                       std::string("a_ij^") + (keys ? "K" : "V") + " = w_clip(j-i, k): one learned vector per "
                                       "relative distance, shared by the heads (Shaw et al. 2018, thesis eq. 3.6-3.10)",
                                       "relative distance j - i", distances, "head dimension",
                                       item.value().slice(1, 0, kDimensions)));
        }
    } else if (technique == "alibi") {
        const int heads = impl_->config.model.heads;
        const auto bias = PositionEncoding::alibiBias(heads, length, options);
        for (int h = 0; h < heads; ++h)
            views.push_back(matrixView("ALiBi bias (head " + std::to_string(h + 1) + ")",
                                       "-m_h |j - i| added to every attention score before the softmax, m_h = 2^(-8h/H)",
                                       "query position", numbered(0, length), "key position", bias[h]));
    } else if (technique == "rope") {
        // q = k = the same unit vector at every position: q_i . k_j after rotation depends on j - i only.
        const int dh = impl_->config.model.dModel / std::max(1, impl_->config.model.heads);
        const auto unit = torch::full({1, 1, length, dh}, 1.0 / std::sqrt(static_cast<double>(dh)), options);
        const auto rotated = PositionEncoding::rotary(unit)[0][0]; // [T, dh]
        const auto scores = (rotated[0].unsqueeze(0) * rotated).sum(1); // position 0 against 0..T-1
        PositionView v;
        v.name = "RoPE: query-key score against distance";
        v.about = "the same unit query and key placed |j - i| apart: rotation by position makes their dot "
                  "product a function of the distance alone (Su et al. 2021)";
        v.curve = true;
        v.rowLabel = "score q.k";
        v.columnLabel = "distance j - i";
        v.rows = {"score"};
        v.columns = numbered(0, length);
        const auto s = scores.contiguous();
        v.values = hostFloats(s);
        views.push_back(std::move(v));
    }
    return views;
}

std::optional<CheckpointRef> ModelExplainer::choose(const std::vector<CheckpointRef>& checkpoints, int bestStep,
                                                    std::optional<int> step)
{
    if (checkpoints.empty())
        return std::nullopt;
    const int wanted = step.value_or(bestStep);
    for (const auto& c : checkpoints)
        if (c.step == wanted)
            return c;
    if (step)
        return std::nullopt;
    return checkpoints.back();
}

} // namespace attnlab
