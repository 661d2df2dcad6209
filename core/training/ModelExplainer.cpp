#include "core/training/ModelExplainer.h"

#include "core/analysis/AttentionRollout.h"
#include "core/data/BatchBuilder.h"
#include "core/data/Tokenizer.h"
#include "core/data/Vocabulary.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ModelCheckpoint.h"

#include <nlohmann/json.hpp>

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
        if (task.at("task") != "text")
            throw std::runtime_error("a time-series model: it explains windows of its series, not typed text "
                                     "(its attention over time is in the run's stored snapshots)");
        impl_->config = TrainConfig::fromJson(meta.at("config").dump());
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
        impl_->tokenizer = Tokenizer(Tokenizer::styleFromName(task.at("tokenizer").get<std::string>()),
                                     task.at("lowercase").get<bool>());
        impl_->maxLength = task.at("max_length").get<int>();
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(where + ": its settings are incomplete (" + e.what() + ")");
    } catch (const std::exception& e) {
        throw std::runtime_error(where + ": " + e.what());
    }
    try {
        impl_->model = ModelFactory::create(impl_->config.model);
        impl_->model->load(opened.archive);
    } catch (const std::exception& e) {
        const std::string what = e.what();
        throw std::runtime_error(where + ": its weights do not fit a " + impl_->config.model.model + " of these settings (" +
                                 what.substr(0, what.find('\n')) + ")");
    }
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
    std::vector<std::int64_t> ids;
    for (const auto& token : out.tokens) {
        ids.push_back(impl_->vocabulary.id(token));
        out.unknown.push_back(ids.back() == Vocabulary::kUnknown);
    }
    out.attention.tokens = out.tokens;
    const auto batch = TensorBatch::from(BatchBuilder::pad({ids}, {}), torch::kCPU);
    torch::Tensor logits;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        out.attention.maps = impl_->model->attentionOfFirst(batch.ids, batch.mask, &out.attention.pooling, &logits);
    }
    if (!out.attention.pooling.empty())
        out.attention.poolingName = impl_->model->poolingName();
    const auto probabilities = torch::softmax(logits[0].to(torch::kDouble), 0).contiguous();
    out.probabilities.assign(probabilities.data_ptr<double>(), probabilities.data_ptr<double>() + probabilities.numel());
    out.predicted = static_cast<int>(probabilities.argmax().item<std::int64_t>());
    out.rollout = AttentionRollout::of(out.attention.maps);
    return out;
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
