#include "core/nn/training/TextGeneration.h"

#include "core/data/LanguageModelText.h"
#include "core/nn/training/SequenceDecoder.h"
#include "core/nn/training/TokenSampler.h"
#include "core/nn/training/WritingDecodingSource.h"

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
    WritingDecodingSource source(model, request.prompt, request.attention, device);
    std::vector<TokenSampler> sampler{TokenSampler(request.sampling)};
    std::vector<std::size_t> order(vocabulary.size());
    SequenceDecoder::write(source, {request.sampling.tokens - 1}, &sampler, [&](const SequenceDecoder::WrittenStep& written) {
        GeneratedText::Step step;
        const auto chosen = written.chosen.front();
        const auto& distribution = written.distributions.front();
        step.token = vocabulary.at(static_cast<std::size_t>(chosen));
        step.id = static_cast<int>(chosen);
        step.probability = distribution[static_cast<std::size_t>(chosen)];
        if (request.alternatives > 0) {
            const auto own = TokenSampler::probabilities(written.hostScores); // one row: its logits
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
        step.contextStart = static_cast<int>(written.out.contextStart);
        if (written.out.attention.defined()) { // [1, L * H, W] -> L * H rows on the host in one copy
            const auto rows = written.out.attention[0].to(torch::kCPU, torch::kFloat).contiguous();
            const float* row = rows.data_ptr<float>();
            for (std::int64_t r = 0; r < rows.size(0); ++r, row += rows.size(1))
                step.attention.emplace_back(row, row + rows.size(1));
        }
        out.steps.push_back(std::move(step));
    });
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
