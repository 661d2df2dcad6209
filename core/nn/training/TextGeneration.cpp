#include "core/nn/training/TextGeneration.h"

#include "core/data/LanguageModelText.h"
#include "core/nn/training/TokenSampler.h"

#include <algorithm>
#include <chrono>
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
    c10::InferenceMode inference; // no autograd bookkeeping at all: writing is op overhead, not arithmetic
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

    const auto started = std::chrono::steady_clock::now();
    TokenSampler sampler(request.sampling);
    std::vector<std::int32_t> text = request.prompt;
    const int limit = model.stateLimit();
    LanguageModel::State state;
    std::int64_t contextStart = 0;
    torch::Tensor logits;
    std::vector<torch::Tensor> attention;
    // The state made again from text[from ..], read in one pass: the last token's logits and attention are the next
    // step's. (A GPT's learned positions move when the window slides, so its cache cannot simply drop the oldest.)
    auto readFrom = [&](std::size_t from) {
        state = model.start(1);
        contextStart = static_cast<std::int64_t>(from);
        attention.clear();
        std::vector<std::int64_t> ids(text.begin() + static_cast<std::ptrdiff_t>(from), text.end());
        const auto window = torch::tensor(ids, torch::kLong).view({1, -1}).to(device);
        logits = model.step(state, window, request.attention ? &attention : nullptr);
    };
    readFrom(limit > 0 && text.size() > static_cast<std::size_t>(limit) ? text.size() - static_cast<std::size_t>(limit) : 0);
    std::vector<std::size_t> order(vocabulary.size());
    for (int n = 0; n < request.sampling.tokens; ++n) {
        GeneratedText::Step step;
        const auto host = TokenSampler::hostLogits(logits);
        const auto distribution = sampler.distribution(host);
        const auto chosen = sampler.next(distribution);
        step.token = vocabulary.at(static_cast<std::size_t>(chosen));
        step.id = static_cast<int>(chosen);
        step.probability = distribution[static_cast<std::size_t>(chosen)];
        if (request.alternatives > 0) {
            const auto own = TokenSampler::probabilities(host);
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
        if (!attention.empty()) { // per layer [1, H, 1, t] -> [L * H, t] on the host in one copy
            const auto rows = torch::cat(attention, 0).reshape({-1, attention.front().size(-1)}).to(torch::kCPU, torch::kFloat).contiguous();
            const float* row = rows.data_ptr<float>();
            for (std::int64_t r = 0; r < rows.size(0); ++r, row += rows.size(1))
                step.attention.emplace_back(row, row + rows.size(1));
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
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

} // namespace attnlab
