#include "core/nn/training/TextGeneration.h"

#include "core/data/LanguageModelText.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/training/SequenceDecoder.h"
#include "core/nn/training/TokenSampler.h"
#include "core/nn/training/WritingDecodingSource.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace attnlab {
namespace {

// What every text written from the request carries before its first token: the model's shape and the prompt.
GeneratedText startedText(const LanguageModel& model, const TextGeneration::Request& request, const std::vector<std::string>& vocabulary,
                          const std::string& unit)
{
    GeneratedText text;
    text.layers = model.attentionLayers();
    text.heads = model.attentionHeads();
    text.temperature = request.sampling.temperature;
    text.topK = request.sampling.topK;
    text.topP = request.sampling.topP;
    text.greedy = request.sampling.greedy;
    text.seed = request.sampling.seed;
    for (auto id : request.prompt)
        text.promptTokens.push_back(vocabulary.at(static_cast<std::size_t>(id)));
    text.prompt = LanguageModelText::join(text.promptTokens, unit);
    return text;
}

// The written tokens joined as the unit joins them; words go on after the prompt's last word with a space.
void finishText(GeneratedText& text, const std::string& unit)
{
    std::vector<std::string> generated;
    for (const auto& s : text.steps)
        generated.push_back(s.token);
    text.text = LanguageModelText::join(generated, unit);
    if (unit == "words" && !generated.empty() && generated.front() != "\n" && !text.promptTokens.empty() && text.promptTokens.back() != "\n")
        text.text = " " + text.text;
}

// A request refused by name: no prompt, sampling out of bounds, or rows (samples, a beam's width) outside 1 to 64.
void refuseBad(const TextGeneration::Request& request, const std::string& rowsName, int rows)
{
    if (request.prompt.empty())
        throw std::invalid_argument("prompt: give at least one token to start from");
    if (auto problem = request.sampling.problem(); !problem.empty())
        throw std::invalid_argument(problem);
    if (rows < 1 || rows > TextGeneration::kMaxSamples)
        throw std::invalid_argument(rowsName + ": must be 1 to " + std::to_string(TextGeneration::kMaxSamples) + " (got " +
                                    std::to_string(rows) + ")");
}

} // namespace

GeneratedText TextGeneration::generate(LanguageModel& model, const Request& request, const std::vector<std::string>& vocabulary,
                                       const std::string& unit, const torch::Device& device)
{
    return generateSamples(model, request, 1, vocabulary, unit, device).front();
}

std::vector<GeneratedText> TextGeneration::generateSamples(LanguageModel& model, const Request& request, int samples,
                                                           const std::vector<std::string>& vocabulary, const std::string& unit,
                                                           const torch::Device& device)
{
    refuseBad(request, "samples", samples);
    c10::InferenceMode inference; // no autograd bookkeeping at all: writing is op overhead, not arithmetic
    const bool wasTraining = model.is_training();
    model.eval();
    std::vector<GeneratedText> out(static_cast<std::size_t>(samples));
    std::vector<TokenSampler> samplers;
    for (int i = 0; i < samples; ++i) { // sample i draws from its own stream, seed + i: sample 0 is the text of `seed` alone
        auto& text = out[static_cast<std::size_t>(i)];
        text = startedText(model, request, vocabulary, unit);
        text.seed = request.sampling.seed + static_cast<std::uint64_t>(i);
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
        finishText(text, unit);
        text.seconds = seconds; // the samples were written together
    }
    model.train(wasTraining);
    return out;
}

std::vector<GeneratedText> TextGeneration::beamSearch(LanguageModel& model, const Request& request, int beamSize,
                                                      const std::vector<std::string>& vocabulary, const std::string& unit,
                                                      const torch::Device& device)
{
    refuseBad(request, "beam", beamSize);
    c10::InferenceMode inference;
    const bool wasTraining = model.is_training();
    model.eval();
    const auto started = std::chrono::steady_clock::now();
    WritingDecodingSource source(model, request.prompt, beamSize, request.attention, device);
    const auto groups = SequenceDecoder::search(source, beamSize, 0.0, {request.sampling.tokens - 1}, request.alternatives);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::vector<GeneratedText> out;
    for (const auto& h : groups.front()) {
        GeneratedText text = startedText(model, request, vocabulary, unit);
        text.beam = beamSize;
        text.logProbability = h.logProbability;
        for (std::size_t u = 0; u < h.tokens.size(); ++u) {
            GeneratedText::Step step;
            step.id = static_cast<int>(h.tokens[u]);
            step.token = vocabulary.at(static_cast<std::size_t>(h.tokens[u]));
            step.probability = std::exp(static_cast<double>(h.logProbabilities[u]));
            if (h.alternativeIds.defined()) {
                const auto ids = hostLongs(h.alternativeIds[static_cast<std::int64_t>(u)]);
                const auto logps = hostFloats(h.alternativeLogProbabilities[static_cast<std::int64_t>(u)]);
                for (std::size_t i = 0; i < ids.size(); ++i)
                    step.alternatives.push_back({vocabulary.at(static_cast<std::size_t>(ids[i])), std::exp(static_cast<double>(logps[i]))});
            }
            if (u < h.stepAttention.size()) { // [L * H, W] on the host
                const auto rows = h.stepAttention[u].contiguous();
                const float* row = rows.data_ptr<float>();
                for (std::int64_t r = 0; r < rows.size(0); ++r, row += rows.size(1))
                    step.attention.emplace_back(row, row + rows.size(1));
                step.contextStart = static_cast<int>(h.contextStarts[u]);
            }
            text.steps.push_back(std::move(step));
        }
        finishText(text, unit);
        text.seconds = seconds;
        out.push_back(std::move(text));
    }
    model.train(wasTraining);
    return out;
}

} // namespace attnlab
