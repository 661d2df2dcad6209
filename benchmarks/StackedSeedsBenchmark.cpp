// would several seeds train faster as one stacked model? 1-layer SSAN + RPR (thesis 4.1: ReLU
// projections, single head, RPR k = 10, FF, mean pooling, sentence FF, softmax; dropout 0.2 on the input,
// hidden and sentence vectors) written once with every weight stacked on a leading seed dimension [K, ...]
// and every product a bmm. K = 1 is the single model. The benchmark times K single models trained one
// after another against one stacked model of K seeds, the same number of Adam steps each, on batches shaped
// like SST-fine's: vocabulary 16,579, 32 sentences a batch, one length per batch (length-bucketed batches)
// drawn around SST-fine's mean of 19 tokens (normal, sd 9, clamped to 2..56), each seed with its own lengths;
// the stacked step pads the K seeds' batches to the longest of them, as it would have to.
// This is a prototype to measure, not a product model: it answers whether building stacked models in the
// engine would pay (docs/BENCHMARKS.md).
//   attnlab-bench-stacked [--seeds K] [--steps N] [--threads T] [--d-model D] [--rounds R] [--same-lengths 1]
#include "core/platform/AllocatorTuning.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kVocabulary = 16579; // SST-fine train, with <pad> and <unk>
constexpr int kClasses = 5;
constexpr int kBatch = 32;
constexpr int kRprClip = 10;

// K SSAN + RPR classifiers in stacked tensors.
struct StackedSsan {
    int seeds, d;
    torch::Tensor embedding, wq, bq, wk, bk, wv, bv, relKeys, relValues, wff, bff, ws, bs, wo, bo;

    StackedSsan(int k, int dModel) : seeds(k), d(dModel)
    {
        auto uniform = [&](std::vector<int64_t> shape, int64_t fanIn) {
            const double bound = 1.0 / std::sqrt(static_cast<double>(fanIn));
            return torch::empty(shape).uniform_(-bound, bound).requires_grad_();
        };
        embedding = torch::randn({k, kVocabulary, d}).mul_(0.1).requires_grad_();
        wq = uniform({k, d, d}, d), bq = uniform({k, 1, d}, d);
        wk = uniform({k, d, d}, d), bk = uniform({k, 1, d}, d);
        wv = uniform({k, d, d}, d), bv = uniform({k, 1, d}, d);
        relKeys = torch::randn({k, 2 * kRprClip + 1, d}).mul_(0.1).requires_grad_();
        relValues = torch::randn({k, 2 * kRprClip + 1, d}).mul_(0.1).requires_grad_();
        wff = uniform({k, d, d}, d), bff = uniform({k, 1, d}, d);
        ws = uniform({k, d, d}, d), bs = uniform({k, 1, d}, d);
        wo = uniform({k, d, kClasses}, d), bo = uniform({k, 1, kClasses}, d);
    }

    std::vector<torch::Tensor> parameters() const
    {
        return {embedding, wq, bq, wk, bk, wv, bv, relKeys, relValues, wff, bff, ws, bs, wo, bo};
    }

    // ids [K, B, L] (0 = padding); returns logits [K, B, C].
    torch::Tensor forward(const torch::Tensor& ids)
    {
        const int64_t k = ids.size(0), b = ids.size(1), l = ids.size(2);
        const auto mask = ids.ne(0);                                                    // [K, B, L]
        const auto offsets = torch::arange(k, torch::kLong).mul(kVocabulary).view({k, 1, 1});
        auto x = embedding.view({k * kVocabulary, d}).index_select(0, (ids + offsets).view(-1)).view({k, b * l, d});
        x = torch::dropout(x, 0.2, true);
        auto project = [&](const torch::Tensor& w, const torch::Tensor& bias) {
            return torch::relu(torch::baddbmm(bias, x, w)); // [K, B*L, d]
        };
        const auto q = project(wq, bq), key = project(wk, bk), v = project(wv, bv);
        auto scores = torch::bmm(q.view({k * b, l, d}), key.view({k * b, l, d}).transpose(1, 2)).view({k, b, l, l});
        const auto distance = torch::arange(l, torch::kLong).view({1, l}) - torch::arange(l, torch::kLong).view({l, 1});
        const auto index = (distance.clamp(-kRprClip, kRprClip) + kRprClip).expand({k, b, l, l});
        scores = scores + torch::bmm(q, relKeys.transpose(1, 2)).view({k, b, l, 2 * kRprClip + 1}).gather(3, index);
        scores = (scores / std::sqrt(static_cast<double>(d))).masked_fill(mask.view({k, b, 1, l}).logical_not(), -1e9);
        const auto weights = torch::softmax(scores, -1);
        auto out = torch::bmm(weights.view({k * b, l, l}), v.view({k * b, l, d})).view({k, b * l, d});
        const auto perRow = torch::zeros({k, b, l, 2 * kRprClip + 1}).scatter_add(3, index, weights);
        out = out + torch::bmm(perRow.view({k, b * l, 2 * kRprClip + 1}), relValues);
        auto h = torch::dropout(torch::relu(torch::baddbmm(bff, out, wff)), 0.2, true).view({k, b, l, d});
        const auto real = mask.unsqueeze(-1).to(torch::kFloat);
        const auto pooled = (h * real).sum(2) / real.sum(2).clamp_min(1.0);           // [K, B, d]
        const auto sentence = torch::dropout(torch::relu(torch::baddbmm(bs, pooled, ws)), 0.2, true);
        return torch::baddbmm(bo, sentence, wo);                                        // [K, B, C]
    }
};

// One seed's batch lengths and contents, the same whether it trains alone or stacked.
struct SeedStream {
    std::mt19937_64 rng;
    explicit SeedStream(std::uint64_t seed) : rng(seed) {}
    int nextLength()
    {
        std::normal_distribution<double> length(19.0, 9.0);
        return std::clamp(static_cast<int>(std::lround(length(rng))), 2, 56);
    }
};

// Trains `steps` Adam steps of a stacked model of `streams.size()` seeds; returns seconds.
double train(std::vector<SeedStream>& streams, int steps, int d)
{
    const auto start = std::chrono::steady_clock::now();
    const int k = static_cast<int>(streams.size());
    StackedSsan model(k, d);
    torch::optim::Adam optimizer(model.parameters(), torch::optim::AdamOptions(1e-3));
    for (int step = 0; step < steps; ++step) {
        std::vector<int> lengths(static_cast<std::size_t>(k));
        for (int s = 0; s < k; ++s)
            lengths[static_cast<std::size_t>(s)] = streams[static_cast<std::size_t>(s)].nextLength();
        const int longest = *std::max_element(lengths.begin(), lengths.end());
        auto ids = torch::zeros({k, kBatch, longest}, torch::kLong);
        for (int s = 0; s < k; ++s) // each sentence of a bucketed batch is about as long as the batch
            ids[s].narrow(1, 0, lengths[static_cast<std::size_t>(s)]).random_(2, kVocabulary);
        const auto labels = torch::randint(kClasses, {k, kBatch}, torch::kLong);
        for (auto& p : model.parameters()) // zeroed in place, as the engine does
            if (p.grad().defined())
                p.mutable_grad().zero_();
        const auto logits = model.forward(ids);
        // The sum of the seeds' mean losses: each seed's gradient is its own.
        torch::nn::functional::cross_entropy(logits.view({k * kBatch, kClasses}), labels.view(-1),
                                             torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
            .div(kBatch)
            .backward();
        optimizer.step();
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int intFlag(int argc, char** argv, const std::string& name, int fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (argv[i] == name)
            return std::atoi(argv[i + 1]);
    return fallback;
}

} // namespace

int main(int argc, char** argv)
{
    attnlab::AllocatorTuning::applyForTraining(); // as attnlab-cli and attnlab do
    const int seeds = intFlag(argc, argv, "--seeds", 5), steps = intFlag(argc, argv, "--steps", 100);
    const int threads = intFlag(argc, argv, "--threads", 2), d = intFlag(argc, argv, "--d-model", 300);
    const int rounds = intFlag(argc, argv, "--rounds", 3);
    // --same-lengths 1: every seed draws the same batch lengths (the best case for stacking: no padding to the
    // longest of the K batches; the seeds' runs then differ from K independent runs in their batch lengths).
    const bool sameLengths = intFlag(argc, argv, "--same-lengths", 0) != 0;
    auto lengthSeed = [&](int s) { return static_cast<std::uint64_t>(sameLengths ? 1 : s + 1); };
    torch::set_num_threads(threads);
    torch::manual_seed(1);
    std::printf("# SSAN + RPR, d_model %d, %d seeds x %d steps of batch %d, %d threads, LibTorch %s, %s\n", d, seeds,
                steps, kBatch, threads, TORCH_VERSION, sameLengths ? "the same lengths for every seed" : "each seed its own lengths");
    std::printf("%-6s %14s %14s %8s\n", "round", "one by one s", "stacked s", "gain");
    for (int r = 1; r <= rounds; ++r) {
        double oneByOne = 0.0;
        for (int s = 0; s < seeds; ++s) {
            std::vector<SeedStream> one{SeedStream(lengthSeed(s))};
            oneByOne += train(one, steps, d);
        }
        std::vector<SeedStream> all;
        for (int s = 0; s < seeds; ++s)
            all.emplace_back(lengthSeed(s));
        const double stacked = train(all, steps, d);
        std::printf("%-6d %14.2f %14.2f %7.2fx\n", r, oneByOne, stacked, oneByOne / stacked);
        std::fflush(stdout);
    }
    return 0;
}
