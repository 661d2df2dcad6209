#include "core/training/TextGenerator.h"

#include "core/data/LanguageModelText.h"
#include "core/data/SubwordModel.h"
#include "core/nn/layers/AttentionInputRecorder.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ModelCheckpoint.h"
#include "core/nn/training/TextGeneration.h"

#include <nlohmann/json.hpp>

#include <mutex>
#include <stdexcept>

namespace attnlab {

struct TextGenerator::Impl {
    TrainConfig config;
    std::vector<std::string> vocabulary;
    std::string unit, prompt, weights;
    std::unique_ptr<SubwordModel> pieces; // unit "pieces": the SentencePiece model the run learnt
    int step = 0;
    std::shared_ptr<LanguageModel> model;
    mutable std::mutex mutex;
};

TextGenerator::TextGenerator(const CheckpointRef& checkpoint) : impl_(std::make_unique<Impl>())
{
    auto opened = ModelCheckpoint::open(checkpoint);
    const std::string where = "checkpoint " + checkpoint.path;
    try {
        const auto meta = nlohmann::json::parse(opened.metadataJson);
        if (meta.at("format").get<int>() > ModelCheckpoint::kFormat)
            throw std::runtime_error("written by a newer Attention Lab (format " + meta.at("format").dump() + ")");
        const auto& task = meta.at("task");
        if (task.at("task") != "language_model")
            throw std::runtime_error("not a language model (generate writes with a model trained on tinyshakespeare, "
                                     "synthetic-repeat or your text; translate and explain take the others)");
        impl_->config = TrainConfig::fromJson(meta.at("config").dump());
        impl_->config.model.vocabularySize = meta.at("sizes").at("vocabulary_size").get<int>();
        impl_->vocabulary = task.at("vocabulary").get<std::vector<std::string>>();
        impl_->unit = task.at("unit").get<std::string>();
        impl_->prompt = task.value("prompt", std::string());
        if (impl_->unit == "pieces")
            impl_->pieces = std::make_unique<SubwordModel>(
                SubwordModel::fromText(task.at("subwords").get<std::string>(), task.at("subword_kind").get<std::string>(), where));
        impl_->weights = meta.at("kind").get<std::string>();
        impl_->step = meta.at("step").get<int>();
        if (static_cast<int>(impl_->vocabulary.size()) != impl_->config.model.vocabularySize)
            throw std::runtime_error("its vocabulary has " + std::to_string(impl_->vocabulary.size()) + " tokens, its model " +
                                     std::to_string(impl_->config.model.vocabularySize));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(where + ": its settings are incomplete (" + e.what() + ")");
    } catch (const std::exception& e) {
        throw std::runtime_error(where + ": " + e.what());
    }
    impl_->model = ModelFactory::createLanguageModel(impl_->config.model);
    ModelCheckpoint::loadInto(*impl_->model, opened, checkpoint, impl_->config.model.model);
    impl_->model->to(torch::kCPU);
    impl_->model->eval();
}

TextGenerator::~TextGenerator() = default;

static_assert(TextGenerator::kMaxSamples == TextGeneration::kMaxSamples, "one bound for the samples written together");

GeneratedText TextGenerator::generate(const std::string& prompt, const SamplingSettings& sampling, int alternatives, bool attention) const
{
    return generateSamples(prompt, sampling, 1, alternatives, attention).front();
}

namespace {

// The prompt as the model's ids, refused by name where it cannot be read (empty, or a token the model never saw).
std::vector<std::int32_t> promptIds(const TextGenerator& generator, const std::string& prompt)
{
    if (prompt.empty())
        throw std::invalid_argument("prompt: give at least one character to start from");
    const auto tokens = generator.tokensOf(prompt);
    if (tokens.empty())
        throw std::invalid_argument("prompt: it has no " + generator.unit() + " to start from");
    try {
        return LanguageModelText::encode(tokens, generator.vocabulary(), generator.unit());
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("prompt: ") + e.what());
    }
}

} // namespace

std::vector<GeneratedText> TextGenerator::generateSamples(const std::string& prompt, const SamplingSettings& sampling, int samples,
                                                          int alternatives, bool attention) const
{
    if (auto problem = sampling.problem(); !problem.empty() && !prompt.empty())
        throw std::invalid_argument(problem);
    TextGeneration::Request request;
    request.prompt = promptIds(*this, prompt);
    request.sampling = sampling;
    request.alternatives = alternatives;
    request.attention = attention;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return TextGeneration::generateSamples(*impl_->model, request, samples, impl_->vocabulary, impl_->unit, torch::Device(torch::kCPU));
}

std::vector<GeneratedText> TextGenerator::beamSearch(const std::string& prompt, int tokens, int beamSize, int alternatives, bool attention) const
{
    TextGeneration::Request request;
    request.prompt = promptIds(*this, prompt);
    request.sampling.tokens = tokens;
    request.alternatives = alternatives;
    request.attention = attention;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return TextGeneration::beamSearch(*impl_->model, request, beamSize, impl_->vocabulary, impl_->unit, torch::Device(torch::kCPU));
}

GateValues TextGenerator::gates(const std::string& text, std::vector<std::string>* tokens) const
{
    const auto pieces = tokensOf(text);
    if (pieces.empty())
        throw std::invalid_argument("text: it has no " + impl_->unit);
    std::vector<std::int32_t> ids;
    try {
        ids = LanguageModelText::encode(pieces, impl_->vocabulary, impl_->unit);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("text: ") + e.what());
    }
    if (tokens)
        *tokens = pieces;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return impl_->model->gates(
        torch::tensor(std::vector<std::int64_t>(ids.begin(), ids.end()), torch::kLong).unsqueeze(0));
}

AttentionStepByStep TextGenerator::stepByStep(const std::string& text, int layer, int head, int query) const
{
    auto tokens = tokensOf(text);
    if (tokens.empty())
        throw std::invalid_argument("text: it has no " + impl_->unit);
    if (impl_->config.model.context > 0 && tokens.size() > static_cast<std::size_t>(impl_->config.model.context))
        tokens.erase(tokens.begin(), tokens.end() - impl_->config.model.context); // the window the model reads
    std::vector<std::int32_t> ids;
    try {
        ids = LanguageModelText::encode(tokens, impl_->vocabulary, impl_->unit);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("text: ") + e.what());
    }
    if (query < 0 || static_cast<std::size_t>(query) >= tokens.size())
        throw std::invalid_argument("query: token " + std::to_string(query) + " is past the text's " + std::to_string(tokens.size()) +
                                    " tokens (0 is the first)");
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    impl_->model->eval();
    AttentionInputRecorder recorder;
    impl_->model->forward(torch::tensor(std::vector<std::int64_t>(ids.begin(), ids.end()), torch::kLong).unsqueeze(0));
    auto steps = recorder.stepByStep(layer, head, query, impl_->config.model.model);
    for (auto& t : tokens)
        steps.tokens.push_back(t == "\n" ? "\\n" : t);
    return steps;
}

const TrainConfig& TextGenerator::config() const { return impl_->config; }
const std::vector<std::string>& TextGenerator::vocabulary() const { return impl_->vocabulary; }
std::string TextGenerator::unit() const { return impl_->unit; }

std::vector<std::string> TextGenerator::tokensOf(const std::string& text) const
{
    return LanguageModelText::split(text, impl_->unit, impl_->pieces.get());
}
std::string TextGenerator::prompt() const { return impl_->prompt; }
std::string TextGenerator::weights() const { return impl_->weights; }
int TextGenerator::step() const { return impl_->step; }

std::pair<std::string, std::int64_t> TextGenerator::describe(const ModelConfig& model)
{
    if (auto problem = model.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const auto built = ModelFactory::createLanguageModel(model);
    return {built->summary(), built->trainableParameters()};
}

} // namespace attnlab
