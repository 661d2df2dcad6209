#include "core/nn/training/TokenAttributor.h"

#include "core/analysis/AttentionRollout.h"
#include "core/nn/layers/TensorConversions.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace attnlab {

TokenAttributor::TokenAttributor(SequenceClassifier& model, torch::Tensor ids, torch::Tensor mask, std::int64_t unknownId)
    : model_(model), ids_(std::move(ids)), mask_(std::move(mask)), unknownId_(unknownId), length_(ids_.size(1))
{
}

torch::Tensor TokenAttributor::probability(const torch::Tensor& embedded, const torch::Tensor& mask, std::int64_t c)
{
    return torch::softmax(model_.forwardEmbedded(embedded, mask).to(torch::kDouble), 1).select(1, c);
}

torch::Tensor TokenAttributor::probabilities()
{
    torch::NoGradGuard noGrad;
    return torch::softmax(model_.forward(ids_, mask_).to(torch::kDouble), 1)[0].to(torch::kCPU);
}

std::vector<double> TokenAttributor::values(const torch::Tensor& scores)
{
    const auto s = scores.detach().to(torch::kCPU, torch::kDouble).contiguous();
    return {s.data_ptr<double>(), s.data_ptr<double>() + s.numel()};
}

torch::Tensor TokenAttributor::readoutOf(const std::vector<float>& pooling, std::string* name) const
{
    // The sentence vector is a weighted sum of the last layer's positions: by the pooling weights where the
    // model pools by attention (AttnSeqRep, attention pooling), all on one position where it reads one (BERT's
    // [CLS]), else by the mean over real positions.
    if (static_cast<std::int64_t>(pooling.size()) == length_) {
        if (name)
            *name = model_.poolingName() + " weights";
        return torch::tensor(pooling, torch::kDouble);
    }
    const int position = model_.readoutPosition();
    if (position >= 0 && position < length_) {
        if (name)
            *name = "position " + std::to_string(position + 1) + " (the token the classifier reads: [CLS])";
        auto w = torch::zeros({length_}, torch::kDouble);
        w[position] = 1.0;
        return w;
    }
    if (name)
        *name = "the mean over positions";
    return torch::full({length_}, 1.0 / static_cast<double>(length_), torch::kDouble);
}

TokenAttribution TokenAttributor::run(const std::string& method, const AttributionOptions& options)
{
    if (!AttributionOptions::known(method))
        throw std::invalid_argument("unknown explanation method '" + method + "'");
    if (const std::string problem = options.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const auto start = std::chrono::steady_clock::now();
    const torch::Tensor p = probabilities();
    const std::int64_t classes = p.size(0);
    if (options.targetClass >= classes)
        throw std::invalid_argument("target class " + std::to_string(options.targetClass) + ": the model has " +
                                    std::to_string(classes) + " classes (0.." + std::to_string(classes - 1) + ")");
    const std::int64_t c = options.targetClass >= 0 ? options.targetClass : p.argmax().item<std::int64_t>();
    TokenAttribution out;
    out.method = method;
    out.targetClass = static_cast<int>(c);
    out.probability = p[c].item<double>();
    if (method == "attention")
        attention(out);
    else if (method == "rollout")
        rollout(out);
    else if (method == "attngrad")
        attentionGradient(out, c);
    else if (method == "grad" || method == "gradxinput")
        gradient(out, c, method == "gradxinput");
    else if (method == "ig")
        integratedGradients(out, c, options.igSteps, options.igBaseline);
    else if (method == "occlusion")
        occlusion(out, c, options.occlusion);
    else // AttributionOptions::known lists a method this dispatch has not learnt: say so, never run another
        throw std::logic_error("explanation method '" + method + "' is known but has no implementation here");
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

void TokenAttributor::attention(TokenAttribution& out)
{
    std::vector<float> pooling;
    const auto maps = model_.attentionOfFirst(ids_, mask_, &pooling);
    if (static_cast<std::int64_t>(pooling.size()) == length_) {
        out.scores.assign(pooling.begin(), pooling.end());
        out.note = model_.poolingName() + " weights";
        return;
    }
    if (maps.empty()) {
        out.note = "this model has no attention";
        return;
    }
    // The last layer: its heads averaged, then the weight each key receives averaged over the queries, or the
    // one query the classifier reads (BERT's [CLS]).
    const int last = maps.back().layer;
    const int readQuery = model_.readoutPosition() < length_ ? model_.readoutPosition() : -1;
    std::vector<double> scores(static_cast<std::size_t>(length_), 0.0);
    int heads = 0;
    for (const auto& m : maps) {
        if (m.layer != last)
            continue;
        ++heads;
        for (int q = 0; q < m.size; ++q)
            if (readQuery < 0 || q == readQuery)
                for (int k = 0; k < m.size; ++k)
                    scores[static_cast<std::size_t>(k)] += m.at(q, k);
    }
    const double queries = readQuery < 0 ? static_cast<double>(length_) : 1.0;
    for (auto& s : scores)
        s /= static_cast<double>(heads) * queries;
    out.scores = std::move(scores);
    out.note = "layer " + std::to_string(last + 1) + "'s weights averaged over " + std::to_string(heads) + " heads" +
               (readQuery < 0 ? std::string(" and the queries") : ", the [CLS] row (the token the classifier reads)");
}

void TokenAttributor::rollout(TokenAttribution& out)
{
    std::vector<float> pooling;
    const auto maps = model_.attentionOfFirst(ids_, mask_, &pooling);
    const auto rolled = AttentionRollout::of(maps);
    if (!rolled) {
        out.note = "no self-attention layers to roll out";
        return;
    }
    const auto r = torch::tensor(rolled->weights, torch::kDouble).view({length_, length_}); // [query, key]
    std::string by;
    const auto w = readoutOf(pooling, &by);
    out.scores = values(w.matmul(r)); // sum_q w_q R[q,k]: the sentence vector's share of each input token
    out.note = "rollout read out by " + by;
}

void TokenAttributor::attentionGradient(TokenAttribution& out, std::int64_t c)
{
    torch::AutoGradMode gradients(true);
    model_.setRecordAttention(true);
    // A leaf that wants gradients, so the weights stay in the graph when no parameter does (a frozen encoder).
    const auto embedded = model_.embed(ids_).detach().requires_grad_(true);
    const auto p = probability(embedded, mask_, c).sum();
    const auto layers = model_.recordedAttention(); // still in the graph: recorded with autograd on
    const auto pooling = model_.recordedPooling();
    model_.setRecordAttention(false);
    if (layers.empty()) {
        out.note = "no self-attention layers to weight by gradients";
        return;
    }
    // Uniform attention's weights are constants (1/n, no scores), so autograd cannot differentiate by them.
    std::vector<torch::Tensor> learned;
    for (const auto& layer : layers)
        if (layer.requires_grad())
            learned.push_back(layer);
    if (learned.empty()) {
        out.note = "the attention weights are fixed (uniform attention): nothing to weight by gradients";
        return;
    }
    const auto found = torch::autograd::grad({p}, learned, {}, /*retain_graph=*/false, /*create_graph=*/false,
                                             /*allow_unused=*/true);
    std::vector<torch::Tensor> grads;
    for (std::size_t l = 0, next = 0; l < layers.size(); ++l)
        grads.push_back(layers[l].requires_grad() ? found[next++] : torch::Tensor());
    // Chefer et al. 2021 (eq. 5-6): R = I; per layer, Ā = E_h[(∇A ⊙ A)+], R = R + Ā R.
    auto r = torch::eye(length_, torch::TensorOptions().dtype(torch::kDouble));
    for (std::size_t l = 0; l < layers.size(); ++l) {
        if (!grads[l].defined())
            continue; // a layer the output does not depend on
        const auto a = layers[l][0].detach().to(torch::kCPU, torch::kDouble);    // [H, T, T]
        const auto g = grads[l][0].to(torch::kCPU, torch::kDouble);              // [H, T, T]
        const auto mixed = (g * a).clamp_min(0.0).mean(0);                        // [T, T]
        r = r + mixed.matmul(r);
    }
    std::vector<float> poolingWeights;
    if (pooling.defined() && pooling.size(-1) == length_) {
        const auto first = pooling[0].detach().to(torch::kCPU, torch::kFloat).contiguous();
        poolingWeights = hostFloats(first);
    }
    std::string by;
    const auto w = readoutOf(poolingWeights, &by);
    out.scores = values(w.matmul(r));
    out.note = "read out by " + by;
}

void TokenAttributor::gradient(TokenAttribution& out, std::int64_t c, bool timesInput)
{
    torch::AutoGradMode gradients(true);
    const auto embedded = model_.embed(ids_).detach().requires_grad_(true); // [1, T, E]
    const auto p = probability(embedded, mask_, c).sum();
    const auto g = torch::autograd::grad({p}, {embedded})[0][0];            // [T, E]
    out.scores = values(timesInput ? (g * embedded[0].detach()).sum(1) : g.norm(2, 1));
}

void TokenAttributor::integratedGradients(TokenAttribution& out, std::int64_t c, int steps, const std::string& baseline)
{
    torch::AutoGradMode gradients(true);
    const auto x = model_.embed(ids_).detach();                             // [1, T, E]
    // pad: every position the padding row's vector (id 0), what the model sees beyond a sentence's end.
    const auto base = baseline == "pad" ? model_.embed(torch::zeros_like(ids_)).detach() : torch::zeros_like(x);
    // Midpoint rule: α_k = (k + 1/2) / m, the m points of the path in one batch [m, T, E].
    const auto alphas = (torch::arange(steps, x.options()) + 0.5) / static_cast<double>(steps);
    const auto path = (base + alphas.view({-1, 1, 1}) * (x - base)).detach().requires_grad_(true);
    const auto p = probability(path, mask_.expand({steps, length_}), c).sum();
    const auto meanGradient = torch::autograd::grad({p}, {path})[0].mean(0); // [T, E]
    const auto scores = ((x[0] - base[0]) * meanGradient).sum(1);           // [T]
    torch::NoGradGuard noGrad;
    const double atX = probability(x, mask_, c).item<double>();
    const double atBaseline = probability(base, mask_, c).item<double>();
    out.scores = values(scores);
    double sum = 0.0;
    for (const double s : out.scores)
        sum += s;
    out.steps = steps;
    out.baseline = baseline;
    out.baselineProbability = atBaseline;
    out.completenessGap = std::abs(sum - (atX - atBaseline));
}

void TokenAttributor::occlusion(TokenAttribution& out, std::int64_t c, const std::string& mode)
{
    torch::NoGradGuard noGrad;
    const auto atX = probability(model_.embed(ids_), mask_, c);             // [1]
    const bool remove = mode == "remove" && length_ > 1;
    torch::Tensor variants, mask;                                             // one row per token left out
    if (remove) {
        std::vector<torch::Tensor> rows;
        for (std::int64_t t = 0; t < length_; ++t)
            rows.push_back(torch::cat({ids_[0].slice(0, 0, t), ids_[0].slice(0, t + 1)}));
        variants = torch::stack(rows);                                        // [T, T-1]
        mask = torch::ones_like(variants, torch::kBool);
    } else {
        variants = ids_.expand({length_, length_}).clone();                  // [T, T]
        variants.fill_diagonal_(unknownId_);
        mask = mask_.expand({length_, length_});
    }
    const auto occluded = probability(model_.embed(variants), mask, c);     // [T]
    out.scores = values(atX - occluded);
    out.note = remove ? "each token removed" : "each token replaced by <unk>";
    if (mode == "remove" && !remove)
        out.note += " (a one-token sentence cannot lose its token)";
}

} // namespace attnlab
