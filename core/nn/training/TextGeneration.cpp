#include "core/nn/training/TextGeneration.h"

#include "core/data/LanguageModelText.h"
#include "core/nn/training/TokenSampler.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace attnlab {

GeneratedText TextGeneration::generate(LanguageModel& model, const Request& request, const std::vector<std::string>& vocabulary,
                                       const std::string& unit, const torch::Device& device)
{
    if (request.prompt.empty())
        throw std::invalid_argument("prompt: give at least one token to start from");
    if (auto problem = request.sampling.problem(); !problem.empty())
        throw std::invalid_argument(problem);
    torch::NoGradGuard noGrad;
    const bool wasTraining = model.is_training();
    model.eval();
    GeneratedText out;
    out.layers = model.attentionLayers();
    out.heads = model.attentionHeads();
    out.temperature = request.sampling.temperature;
    out.topK = request.sampling.topK;
    out.topP = request.sampling.topP;
    out.greedy = request.sampling.greedy;
    out.seed = request.sampling.seed;
    for (auto id : request.prompt)
        out.promptTokens.push_back(vocabulary.at(static_cast<std::size_t>(id)));
    out.prompt = LanguageModelText::join(out.promptTokens, unit);

    TokenSampler sampler(request.sampling);
    std::vector<std::int32_t> text = request.prompt;
    const int limit = model.stateLimit();
    LanguageModel::State state;
    std::int64_t contextStart = 0;
    torch::Tensor logits;
    std::vector<torch::Tensor> attention;
    // The state made again from text[from ..]: the last token's logits and attention are the next step's.
    auto readFrom = [&](std::size_t from) {
        state = model.start(1);
        contextStart = static_cast<std::int64_t>(from);
        for (std::size_t i = from; i < text.size(); ++i) {
            attention.clear();
            const auto id = torch::full({1, 1}, static_cast<std::int64_t>(text[i]), torch::TensorOptions().dtype(torch::kLong).device(device));
            logits = model.step(state, id, request.attention && i + 1 == text.size() ? &attention : nullptr);
        }
    };
    readFrom(limit > 0 && text.size() > static_cast<std::size_t>(limit) ? text.size() - static_cast<std::size_t>(limit) : 0);
    std::vector<std::size_t> order(vocabulary.size());
    for (int n = 0; n < request.sampling.tokens; ++n) {
        GeneratedText::Step step;
        const auto distribution = sampler.distribution(logits.reshape({-1}));
        const auto chosen = sampler.next(distribution);
        step.token = vocabulary.at(static_cast<std::size_t>(chosen));
        step.id = static_cast<int>(chosen);
        step.probability = distribution[static_cast<std::size_t>(chosen)];
        if (request.alternatives > 0) {
            const auto own = TokenSampler::probabilities(logits.reshape({-1}));
            std::iota(order.begin(), order.end(), 0);
            const auto k = std::min<std::size_t>(order.size(), static_cast<std::size_t>(request.alternatives));
            std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                              [&](std::size_t a, std::size_t b) { return own[a] > own[b] || (own[a] == own[b] && a < b); });
            for (std::size_t i = 0; i < k; ++i)
                step.alternatives.push_back({vocabulary[order[i]], own[order[i]]});
            std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(), [&](std::size_t a, std::size_t b) {
                return distribution[a] > distribution[b] || (distribution[a] == distribution[b] && a < b);
            });
            for (std::size_t i = 0; i < k; ++i)
                step.sampled.push_back({vocabulary[order[i]], distribution[order[i]]});
        }
        // The attention that made this token's distribution: the last position's row of each layer and head.
        step.contextStart = static_cast<int>(contextStart);
        for (const auto& layer : attention) { // [1, H, 1, t]
            const auto rows = layer.to(torch::kFloat).to(torch::kCPU).reshape({layer.size(1), -1}).contiguous();
            for (std::int64_t h = 0; h < rows.size(0); ++h)
                step.attention.emplace_back(rows[h].data_ptr<float>(), rows[h].data_ptr<float>() + rows.size(1));
        }
        out.steps.push_back(std::move(step));
        text.push_back(static_cast<std::int32_t>(chosen));
        if (n + 1 == request.sampling.tokens)
            break;
        if (limit > 0 && state.position >= limit) {
            readFrom(text.size() - static_cast<std::size_t>(std::max(1, limit / 2)));
        } else {
            attention.clear();
            const auto id = torch::full({1, 1}, chosen, torch::TensorOptions().dtype(torch::kLong).device(device));
            logits = model.step(state, id, request.attention ? &attention : nullptr);
        }
    }
    std::vector<std::string> generated;
    for (const auto& s : out.steps)
        generated.push_back(s.token);
    out.text = LanguageModelText::join(generated, unit);
    if (unit == "words" && !generated.empty() && generated.front() != "\n" && !out.promptTokens.empty() && out.promptTokens.back() != "\n")
        out.text = " " + out.text; // the text goes on after the prompt's last word
    model.train(wasTraining);
    return out;
}

} // namespace attnlab
