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
    return generateSamples(model, request, 1, vocabulary, unit, device).front();
}

std::vector<GeneratedText> TextGeneration::generateSamples(LanguageModel& model, const Request& request, int samples,
                                                           const std::vector<std::string>& vocabulary, const std::string& unit,
                                                           const torch::Device& device)
{
    if (request.prompt.empty())
        throw std::invalid_argument("prompt: give at least one token to start from");
    if (auto problem = request.sampling.problem(); !problem.empty())
        throw std::invalid_argument(problem);
    if (samples < 1 || samples > kMaxSamples)
        throw std::invalid_argument("samples: must be 1 to " + std::to_string(kMaxSamples) + " (got " + std::to_string(samples) + ")");
    c10::InferenceMode inference; // no autograd bookkeeping at all: writing is op overhead, not arithmetic
    const bool wasTraining = model.is_training();
    model.eval();
    std::vector<GeneratedText> out(static_cast<std::size_t>(samples));
    std::vector<TokenSampler> samplers;
    for (int i = 0; i < samples; ++i) { // sample i draws from its own stream, seed + i: sample 0 is the text of `seed` alone
        auto& text = out[static_cast<std::size_t>(i)];
        text.layers = model.attentionLayers();
        text.heads = model.attentionHeads();
        text.temperature = request.sampling.temperature;
        text.topK = request.sampling.topK;
        text.topP = request.sampling.topP;
        text.greedy = request.sampling.greedy;
        text.seed = request.sampling.seed + static_cast<std::uint64_t>(i);
        for (auto id : request.prompt)
            text.promptTokens.push_back(vocabulary.at(static_cast<std::size_t>(id)));
        text.prompt = LanguageModelText::join(text.promptTokens, unit);
        auto own = request.sampling;
        own.seed = text.seed;
        samplers.emplace_back(own);
    }

    const auto started = std::chrono::steady_clock::now();
    WritingDecodingSource source(model, request.prompt, samples, request.attention, device);
    std::vector<std::size_t> order(vocabulary.size());
    const std::size_t v = vocabulary.size();
    SequenceDecoder::write(source, std::vector<int>(static_cast<std::size_t>(samples), request.sampling.tokens - 1), &samplers,
                           [&](const SequenceDecoder::WrittenStep& written) {
        // The attention that made each row's distribution: the last position's row of each layer and head, [N, L * H, W]
        // on the host in one copy.
        const auto attention = written.out.attention.defined() ? written.out.attention.to(torch::kCPU, torch::kFloat).contiguous() : torch::Tensor();
        for (std::size_t r = 0; r < written.rows.size(); ++r) {
            GeneratedText::Step step;
            const auto chosen = written.chosen[r];
            const auto& distribution = written.distributions[r];
            step.token = vocabulary.at(static_cast<std::size_t>(chosen));
            step.id = static_cast<int>(chosen);
            step.probability = distribution[static_cast<std::size_t>(chosen)];
            if (request.alternatives > 0) {
                const auto first = written.hostScores.begin() + static_cast<std::ptrdiff_t>(r * v);
                const auto own = TokenSampler::probabilities(std::vector<double>(first, first + static_cast<std::ptrdiff_t>(v)));
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
            step.contextStart = static_cast<int>(written.out.contextStart);
            if (attention.defined()) {
                const auto rows = attention[static_cast<std::int64_t>(r)];
                const float* row = rows.data_ptr<float>();
                for (std::int64_t h = 0; h < rows.size(0); ++h, row += rows.size(1))
                    step.attention.emplace_back(row, row + rows.size(1));
            }
            out[static_cast<std::size_t>(written.rows[r])].steps.push_back(std::move(step));
        }
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    for (auto& text : out) {
        std::vector<std::string> generated;
        for (const auto& s : text.steps)
            generated.push_back(s.token);
        text.text = LanguageModelText::join(generated, unit);
        if (unit == "words" && !generated.empty() && generated.front() != "\n" && !text.promptTokens.empty() && text.promptTokens.back() != "\n")
            text.text = " " + text.text; // the text goes on after the prompt's last word
        text.seconds = seconds; // the samples were written together
    }
    model.train(wasTraining);
    return out;
}

} // namespace attnlab
