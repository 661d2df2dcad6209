#include "core/nn/models/Seq2SeqModel.h"

#include "core/nn/layers/TensorConversions.h"

namespace attnlab {

Seq2SeqModel::StepOutput Seq2SeqModel::step(const Encoded& encoded, DecoderState& state, const torch::Tensor& previous, int64_t t)
{
    auto out = advance(encoded, state, previous, t);
    return {project(out.features), out.attention};
}

torch::Tensor Seq2SeqModel::features(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn,
                                     double teacherForcing)
{
    // The step-by-step loop, which every model can run: the recurrent decoders train through it (their steps
    // depend on each other anyway); the Transformer overrides it with one parallel pass.
    auto encoded = encode(source, sourceMask);
    auto state = start(encoded);
    std::vector<torch::Tensor> features;
    features.reserve(static_cast<std::size_t>(targetIn.size(1)));
    torch::Tensor previous = targetIn.select(1, 0);
    for (int64_t t = 0; t < targetIn.size(1); ++t) {
        if (t > 0) {
            previous = targetIn.select(1, t);
            // Scheduled feeding (Bengio et al. 2015): the whole batch takes its own guess this step.
            if (teacherForcing < 1.0 && is_training() && torch::rand({1}).item<double>() >= teacherForcing) {
                torch::NoGradGuard guessOnly;
                previous = project(features.back()).argmax(-1);
            }
        }
        features.push_back(advance(encoded, state, previous, t).features);
    }
    return torch::stack(features, 1);
}

torch::Tensor Seq2SeqModel::features(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& hostSourceLengths,
                                     const torch::Tensor& targetIn, double teacherForcing)
{
    struct Reset {
        torch::Tensor& lengths;
        ~Reset() { lengths = torch::Tensor(); }
    } reset{hostSourceLengths_};
    hostSourceLengths_ = hostSourceLengths;
    return features(source, sourceMask, targetIn, teacherForcing);
}

torch::Tensor Seq2SeqModel::forward(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn,
                                    double teacherForcing)
{
    return project(features(source, sourceMask, targetIn, teacherForcing));
}

torch::Tensor Seq2SeqModel::forward(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& hostSourceLengths,
                                    const torch::Tensor& targetIn, double teacherForcing)
{
    return project(features(source, sourceMask, hostSourceLengths, targetIn, teacherForcing));
}

Seq2SeqModel::Encoded Seq2SeqModel::select(const Encoded& encoded, const torch::Tensor& index)
{
    Encoded out;
    out.memory = encoded.memory.index_select(0, index);
    out.mask = encoded.mask.index_select(0, index);
    out.lengths = encoded.lengths.index_select(0, index);
    for (const auto& t : encoded.extra)
        out.extra.push_back(t.defined() ? t.index_select(0, index) : t);
    return out;
}

void Seq2SeqModel::select(DecoderState& state, const torch::Tensor& index)
{
    for (auto& t : state.tensors)
        if (t.defined())
            t = t.index_select(0, index);
}

std::vector<AttentionMap> Seq2SeqModel::mapsOfFirst(const std::vector<torch::Tensor>& layers, int64_t rows, int64_t columns, bool square)
{
    std::vector<AttentionMap> maps;
    for (std::size_t l = 0; l < layers.size(); ++l)
        for (int64_t h = 0; h < layers[l].size(1); ++h) {
            AttentionMap m;
            m.layer = static_cast<int>(l);
            m.head = static_cast<int>(h);
            m.size = static_cast<int>(rows);
            m.columns = square ? 0 : static_cast<int>(columns);
            const auto w = layers[l][0][h].slice(0, 0, rows).slice(1, 0, columns).to(torch::kCPU, torch::kFloat).contiguous();
            m.weights = hostFloats(w);
            maps.push_back(std::move(m));
        }
    return maps;
}

std::int64_t Seq2SeqModel::trainableParametersWithoutEmbedding() const
{
    std::int64_t total = 0;
    for (const auto& p : named_parameters(true))
        if (p.value().requires_grad() && p.key().find("embedding.weight") == std::string::npos)
            total += p.value().numel();
    return total;
}

} // namespace attnlab
