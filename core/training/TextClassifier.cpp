#include "core/training/TextClassifier.h"

#include "core/nn/layers/TensorConversions.h"
#include "core/nn/models/ModelFactory.h"

namespace attnlab {

struct TextClassifier::Impl {
    std::shared_ptr<SequenceClassifier> module;
};

TextClassifier::TextClassifier(const ModelConfig& config, std::uint64_t seed) : impl_(std::make_unique<Impl>())
{
    torch::manual_seed(seed);
    impl_->module = ModelFactory::create(config);
    impl_->module->eval();
}

TextClassifier::~TextClassifier() = default;

std::int64_t TextClassifier::trainableParameters() const
{
    return impl_->module->trainableParametersWithoutEmbedding();
}

std::string TextClassifier::summary() const
{
    return impl_->module->summary();
}

std::vector<float> TextClassifier::logits(const Batch& batch) const
{
    torch::NoGradGuard noGrad;
    auto t = TensorBatch::from(batch, torch::kCPU);
    auto out = impl_->module->forward(t.ids, t.mask).contiguous();
    return hostFloats(out);
}

std::vector<AttentionMap> TextClassifier::attention(const Batch& batch) const
{
    auto t = TensorBatch::from(batch, torch::kCPU);
    return impl_->module->attentionOfFirst(t.ids, t.mask);
}

} // namespace attnlab
