#include "core/training/PretrainedLanguageModel.h"

#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/install/DatasetManifest.h"
#include "core/data/pretrained/ByteLevelBpeTokenizer.h"
#include "core/data/pretrained/GgufFile.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/models/LlamaModel.h"
#include "core/nn/training/TextGeneration.h"
#include "core/training/ComputeDevice.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <random>
#include <stdexcept>

namespace attnlab {

namespace {

double loadTimeSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Every map of a reading as the lab keeps maps: layer-major, each [T][S] row-major, of the batch's first row.
std::vector<AttentionMap> mapsOf(const std::vector<torch::Tensor>& attention)
{
    std::vector<AttentionMap> maps;
    for (std::size_t l = 0; l < attention.size(); ++l) {
        const auto a = attention[l][0].to(torch::kCPU, torch::kFloat).contiguous(); // [H, T, S]
        for (int64_t h = 0; h < a.size(0); ++h) {
            AttentionMap m;
            m.layer = static_cast<int>(l);
            m.head = static_cast<int>(h);
            m.size = static_cast<int>(a.size(1));
            m.columns = a.size(2) == a.size(1) ? 0 : static_cast<int>(a.size(2));
            m.weights = hostFloats(a[h].contiguous());
            maps.push_back(std::move(m));
        }
    }
    return maps;
}

} // namespace

struct PretrainedLanguageModel::Impl {
    std::string path;
    LlamaConfig config;
    std::unique_ptr<ByteLevelBpeTokenizer> tokenizer;
    std::shared_ptr<LlamaModel> model;
    torch::Device device {torch::kCPU};
    std::string chatTemplate;
    int startToken = 0; // read before a repeated random sequence: the document separator SmolLM2 was trained with
    std::vector<int> ordinaryTokens; // what random sequences are drawn from: no special or byte tokens
    double loadSeconds = 0.0;
    mutable std::mutex mutex;

    torch::Tensor idsTensor(const std::vector<int>& ids) const
    {
        std::vector<int64_t> v(ids.begin(), ids.end());
        return torch::tensor(v, torch::kLong).view({1, static_cast<int64_t>(v.size())}).to(device);
    }

    // The model's ablations for a selection (checked against the model's sizes by HeadSelection::parse).
    void ablate(const HeadSelection& selection) const
    {
        std::vector<HeadAblation> perLayer(static_cast<std::size_t>(config.layers));
        for (const auto& [l, h] : selection.heads) {
            if (l < 0 || l >= config.layers || h < 0 || h >= config.heads)
                throw std::invalid_argument("--ablate: head " + std::to_string(l + 1) + "." + std::to_string(h + 1) +
                                            " does not exist (the model has " + std::to_string(config.layers) +
                                            " layers of " + std::to_string(config.heads) + " heads)");
            perLayer[static_cast<std::size_t>(l)].heads.push_back(h);
            perLayer[static_cast<std::size_t>(l)].mean = selection.mean;
        }
        model->setAblations(std::move(perLayer));
    }
    // Clears the ablation whatever way the call leaves.
    struct AblationScope {
        const Impl& impl;
        AblationScope(const Impl& i, const HeadSelection& s) : impl(i) { impl.ablate(s); }
        ~AblationScope() { impl.model->setAblations({}); }
    };

    Pieces pieces(const std::string& text) const
    {
        if (text.empty())
            throw std::invalid_argument("text: empty (type a prompt)");
        const BpeEncoding encoding = tokenizer->encode(text); // throws "text: invalid UTF-8 at byte N"
        if (static_cast<int>(encoding.ids.size()) > config.context)
            throw std::invalid_argument("text: " + std::to_string(encoding.ids.size()) +
                                        " pieces, past the model's context of " + std::to_string(config.context));
        return {encoding.ids, encoding.pieces};
    }
};

std::string PretrainedLanguageModel::locate(const std::string& id, const std::string& explicitDataDir)
{
    const DatasetManifest* manifest = DatasetManifest::find(id);
    if (!manifest || manifest->task != "pretrained" || manifest->files.size() != 1)
        throw DataError(id, 0, "not a pretrained language model's id (File > Datasets... lists them)");
    return DataLocator::join(DataLocator::locate(manifest->folder, explicitDataDir), manifest->files.front().path);
}

PretrainedLanguageModel::PretrainedLanguageModel(const std::string& ggufPath, const std::string& device)
    : impl_(std::make_unique<Impl>())
{
    const auto start = std::chrono::steady_clock::now();
    impl_->path = ggufPath;
    const GgufFile file(ggufPath);
    impl_->config = LlamaConfig::fromGguf(file);
    const std::string& model = file.text("tokenizer.ggml.model");
    if (model != "gpt2")
        throw DataError(ggufPath, 0,
                        "metadata 'tokenizer.ggml.model' is '" + model + "': the lab reads byte-level BPE (gpt2) only");
    std::vector<int> types;
    if (file.find("tokenizer.ggml.token_type"))
        for (auto t : file.integers("tokenizer.ggml.token_type"))
            types.push_back(static_cast<int>(t));
    impl_->tokenizer = std::make_unique<ByteLevelBpeTokenizer>(file.texts("tokenizer.ggml.tokens"), types,
                                                               file.texts("tokenizer.ggml.merges"), ggufPath);
    if (impl_->tokenizer->size() != impl_->config.vocabulary)
        throw DataError(ggufPath, 0,
                        "metadata 'tokenizer.ggml.tokens' holds " + std::to_string(impl_->tokenizer->size()) +
                            " tokens, but 'llama.vocab_size' is " + std::to_string(impl_->config.vocabulary));
    if (const GgufValue* t = file.find("tokenizer.chat_template"); t && t->type == GgufValueType::String)
        impl_->chatTemplate = t->text;
    for (int id = 0; id < impl_->tokenizer->size(); ++id)
        if (!impl_->tokenizer->isSpecial(id) && (types.empty() || types[static_cast<std::size_t>(id)] == 1))
            impl_->ordinaryTokens.push_back(id);
    const int endOfText = impl_->tokenizer->idOf("<|endoftext|>");
    impl_->startToken = endOfText >= 0 ? endOfText : 0;

    const std::string resolved = ComputeDevice::resolve(device);
    impl_->device = torch::Device(resolved);
    impl_->model = std::make_shared<LlamaModel>(impl_->config);
    impl_->model->load(file);
    impl_->model->eval();
    impl_->model->to(impl_->device);
    impl_->loadSeconds = loadTimeSince(start);
}

PretrainedLanguageModel::~PretrainedLanguageModel() = default;

PretrainedLanguageModel::Pieces PretrainedLanguageModel::tokenize(const std::string& text) const
{
    return impl_->pieces(text);
}

std::string PretrainedLanguageModel::chatPrompt(const std::string& instruction) const
{
    // The ChatML template SmolLM2 ships, applied as its Jinja would: the default system turn (its text read from the
    // template), the user's turn, the assistant's opened (add_generation_prompt). A full Jinja engine is not needed for
    // one template; another is refused rather than guessed.
    const std::string& t = impl_->chatTemplate;
    const std::string open = "<|im_start|>system\n";
    const std::size_t at = t.find(open);
    const std::size_t end = at == std::string::npos ? at : t.find("<|im_end|>", at);
    if (at == std::string::npos || end == std::string::npos)
        throw std::runtime_error(impl_->path + ": no ChatML chat template (metadata 'tokenizer.chat_template')");
    const std::string system = t.substr(at + open.size(), end - at - open.size());
    return "<|im_start|>system\n" + system + "<|im_end|>\n<|im_start|>user\n" + instruction +
        "<|im_end|>\n<|im_start|>assistant\n";
}

PretrainedLanguageModel::Outputs PretrainedLanguageModel::run(const std::vector<int>& ids, bool attention,
                                                              const HeadSelection& ablate) const
{
    std::lock_guard<std::mutex> lock(impl_->mutex);
    for (int id : ids)
        if (id < 0 || id >= impl_->config.vocabulary)
            throw std::invalid_argument("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                                        std::to_string(impl_->config.vocabulary - 1) + ")");
    if (ids.empty() || static_cast<int>(ids.size()) > impl_->config.context)
        throw std::invalid_argument("an input of " + std::to_string(ids.size()) + " tokens: the model reads 1 to " +
                                    std::to_string(impl_->config.context));
    torch::NoGradGuard noGrad;
    Impl::AblationScope scope(*impl_, ablate);
    auto reading = impl_->model->read(impl_->idsTensor(ids), attention, false);
    Outputs out;
    out.length = static_cast<int>(ids.size());
    out.vocabulary = impl_->config.vocabulary;
    out.logits = hostFloats(reading.logits[0].to(torch::kCPU).contiguous());
    if (attention)
        out.maps = mapsOf(reading.attention);
    return out;
}

std::vector<float> PretrainedLanguageModel::runCached(const std::vector<int>& ids) const
{
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (ids.empty() || static_cast<int>(ids.size()) > impl_->config.context)
        throw std::invalid_argument("an input of " + std::to_string(ids.size()) + " tokens: the model reads 1 to " +
                                    std::to_string(impl_->config.context));
    torch::NoGradGuard noGrad;
    auto state = impl_->model->start(1);
    const auto all = impl_->idsTensor(ids);
    // The first half read in one pass, then one piece at a time: both paths of the cache.
    const int64_t first = std::max<int64_t>(1, all.size(1) / 2);
    std::vector<torch::Tensor> rows;
    auto logits = impl_->model->step(state, all.narrow(1, 0, first));
    rows.push_back(logits);
    for (int64_t t = first; t < all.size(1); ++t)
        rows.push_back(impl_->model->step(state, all.narrow(1, t, 1)));
    // Row 0 is position first - 1's; the positions before it are read again whole, to fill [T][V].
    auto whole = impl_->model->read(all.narrow(1, 0, first), false, false).logits[0];
    auto cached = torch::cat({whole.narrow(0, 0, first - 1), torch::cat(rows, 0)}, 0);
    return hostFloats(cached.to(torch::kCPU).contiguous());
}

ModelExplanation PretrainedLanguageModel::explain(const std::string& text, const HeadSelection& ablate) const
{
    const Pieces p = impl_->pieces(text);
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    Impl::AblationScope scope(*impl_, ablate);
    auto reading = impl_->model->read(impl_->idsTensor(p.ids), true, false);
    ModelExplanation out;
    out.text = text;
    out.tokens = p.pieces;
    out.unknown.assign(p.pieces.size(), false);
    out.maxLength = impl_->config.context;
    out.weights = "pretrained";
    out.attention.step = -1;
    out.attention.tokens = p.pieces;
    out.attention.maps = mapsOf(reading.attention);
    // The next piece the model expects after the whole text: its five likeliest, as the explanation's classes.
    const auto probabilities = torch::softmax(reading.logits[0][-1], -1).to(torch::kCPU);
    const auto top = probabilities.topk(5);
    const auto ids = hostLongs(std::get<1>(top).contiguous());
    const auto values = hostFloats(std::get<0>(top).contiguous());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        out.classNames.push_back(impl_->tokenizer->pieceText(static_cast<int>(ids[i])));
        out.probabilities.push_back(values[i]);
    }
    out.predicted = ids.empty() ? -1 : 0;
    return out;
}

LogitLens PretrainedLanguageModel::logitLens(const std::string& text, int top, const HeadSelection& ablate) const
{
    if (top < 1 || top > 50)
        throw std::invalid_argument("top: " + std::to_string(top) + " guesses; 1 to 50");
    const Pieces p = impl_->pieces(text);
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    Impl::AblationScope scope(*impl_, ablate);
    auto reading = impl_->model->read(impl_->idsTensor(p.ids), false, true);
    LogitLens lens;
    lens.tokens = p.pieces;
    const auto T = static_cast<int64_t>(p.ids.size());
    std::vector<int64_t> nextIds(p.ids.begin() + 1, p.ids.end());
    const auto next =
        torch::tensor(nextIds.empty() ? std::vector<int64_t> {0} : nextIds, torch::kLong).to(impl_->device);
    for (std::size_t s = 0; s < reading.residuals.size(); ++s) {
        lens.stages.push_back(s == 0 ? "embedding" : "layer " + std::to_string(s));
        // The batch as the model reads it ([1, T, d]): the last stage is then its logits to the bit.
        const auto probabilities = torch::softmax(impl_->model->readOut(reading.residuals[s])[0], -1); // [T, V]
        const auto best = probabilities.topk(top, -1);
        const auto ids = hostLongs(std::get<1>(best).to(torch::kCPU).contiguous());
        const auto values = hostFloats(std::get<0>(best).to(torch::kCPU).contiguous());
        std::vector<float> following;
        if (T > 1)
            following = hostFloats(
                probabilities.narrow(0, 0, T - 1).gather(1, next.view({-1, 1})).to(torch::kCPU).contiguous());
        lens.top.emplace_back();
        lens.nextProbability.emplace_back();
        for (int64_t t = 0; t < T; ++t) {
            std::vector<LogitLens::Guess> guesses;
            for (int k = 0; k < top; ++k) {
                const auto i = static_cast<std::size_t>(t * top + k);
                const int id = static_cast<int>(ids[i]);
                guesses.push_back({impl_->tokenizer->pieceText(id), id, values[i]});
            }
            lens.top.back().push_back(std::move(guesses));
            lens.nextProbability.back().push_back(t + 1 < T ? following[static_cast<std::size_t>(t)] : -1.0);
        }
    }
    return lens;
}

AttentionStepByStep PretrainedLanguageModel::stepByStep(const std::string& text, int layer, int head, int query) const
{
    const auto& c = impl_->config;
    if (layer < 0 || layer >= c.layers)
        throw std::invalid_argument("layer: " + std::to_string(layer + 1) + " does not exist (1 to " +
                                    std::to_string(c.layers) + ")");
    if (head < 0 || head >= c.heads)
        throw std::invalid_argument("head: " + std::to_string(head + 1) + " does not exist (1 to " +
                                    std::to_string(c.heads) + ")");
    const Pieces p = impl_->pieces(text);
    if (query < 0 || query >= static_cast<int>(p.ids.size()))
        throw std::invalid_argument("query: piece " + std::to_string(query) + " is past the text's " +
                                    std::to_string(p.ids.size()) + " pieces (0 is the first)");
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    auto reading = impl_->model->read(impl_->idsTensor(p.ids), true, true);
    auto& block = impl_->model->block(layer);
    // The head's arithmetic from the layer's own input (the residual stream before it, through its RMSNorm).
    const auto normed = block->attentionNorm->forward(reading.residuals[static_cast<std::size_t>(layer)]);
    const auto proj = block->attention->project(normed, 0);
    const int kvHead = head / (c.heads / c.kvHeads);
    const auto q = proj.rotatedQuery[0][head][query].to(torch::kCPU); // [dh]
    const auto keys = proj.rotatedKey[0][kvHead].to(torch::kCPU); // [T, dh]
    const auto values = proj.value[0][kvHead].to(torch::kCPU); // [T, dh]
    const auto dot = torch::matmul(keys, q); // q . k_j  [T]
    const double divisor = std::sqrt(static_cast<double>(c.headSize));
    auto scores = dot / divisor;
    const auto later = torch::arange(static_cast<int64_t>(p.ids.size())) > query; // the causal mask
    const auto weights = torch::softmax(scores.masked_fill(later, -std::numeric_limits<float>::infinity()), 0);
    AttentionStepByStep s;
    s.layer = layer;
    s.head = head;
    s.query = query;
    s.headSize = c.headSize;
    s.kvHead = c.kvHeads == c.heads ? -1 : kvHead;
    s.position = "rope";
    s.tokens = p.pieces;
    s.input = hostFloats(normed[0][query].to(torch::kCPU).contiguous());
    s.q = hostFloats(q.contiguous());
    for (int64_t j = 0; j < keys.size(0); ++j) {
        s.keys.push_back(hostFloats(keys[j].contiguous()));
        s.values.push_back(hostFloats(values[j].contiguous()));
        s.masked.push_back(j > query);
    }
    s.dot = hostFloats(dot.contiguous());
    s.positionTerm.assign(s.dot.size(), 0.0f); // RoPE acts on q and k themselves, before the dot product
    s.divisor = divisor;
    s.scores = hostFloats(scores.contiguous());
    s.weights = hostFloats(weights.contiguous());
    s.output = hostFloats(torch::matmul(weights, values).contiguous());
    s.modelWeights =
        hostFloats(reading.attention[static_cast<std::size_t>(layer)][0][head][query].to(torch::kCPU).contiguous());
    return s;
}

GeneratedText PretrainedLanguageModel::generate(const std::string& prompt, const SamplingSettings& sampling,
                                                int alternatives, bool attention, const HeadSelection& ablate) const
{
    if (const std::string problem = sampling.problem(); !problem.empty())
        throw std::invalid_argument(problem);
    const Pieces p = impl_->pieces(prompt);
    if (static_cast<int>(p.ids.size()) + sampling.tokens > impl_->config.context)
        throw std::invalid_argument("tokens: the prompt's " + std::to_string(p.ids.size()) + " pieces and " +
                                    std::to_string(sampling.tokens) + " more pass the model's context of " +
                                    std::to_string(impl_->config.context));
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    Impl::AblationScope scope(*impl_, ablate);
    std::vector<std::string> vocabulary;
    vocabulary.reserve(static_cast<std::size_t>(impl_->tokenizer->size()));
    for (int id = 0; id < impl_->tokenizer->size(); ++id)
        vocabulary.push_back(impl_->tokenizer->pieceText(id));
    TextGeneration::Request request;
    request.prompt.assign(p.ids.begin(), p.ids.end());
    request.sampling = sampling;
    request.alternatives = alternatives;
    request.attention = attention;
    // Pieces are bytes: joined as they are ("characters" concatenates), so a character split over pieces is whole
    // again in the text.
    GeneratedText out = TextGeneration::generate(*impl_->model, request, vocabulary, "characters", impl_->device);
    out.prompt = prompt;
    return out;
}

HeadCopyScores PretrainedLanguageModel::copyingHeads(int length, int sequences, unsigned long long seed,
                                                     const HeadSelection& ablate) const
{
    const auto& c = impl_->config;
    if (length < 4 || 2 * length + 1 > c.context)
        throw std::invalid_argument("length: " + std::to_string(length) + " tokens; 4 to " +
                                    std::to_string((c.context - 1) / 2));
    if (sequences < 1 || sequences > 64)
        throw std::invalid_argument("sequences: " + std::to_string(sequences) + "; 1 to 64");
    const auto start = std::chrono::steady_clock::now();
    // [B, 1 + 2n]: the start token, n random ordinary tokens, the same n again. std::mt19937_64 and a modulo draw:
    // the same sequences on every platform for a seed.
    std::mt19937_64 draw(seed);
    const int64_t n = length, T = 2 * n + 1;
    std::vector<int64_t> ids;
    for (int b = 0; b < sequences; ++b) {
        std::vector<int64_t> random;
        for (int64_t i = 0; i < n; ++i)
            random.push_back(impl_->ordinaryTokens[draw() % impl_->ordinaryTokens.size()]);
        ids.push_back(impl_->startToken);
        ids.insert(ids.end(), random.begin(), random.end());
        ids.insert(ids.end(), random.begin(), random.end());
    }
    const auto tokens = torch::tensor(ids, torch::kLong).view({sequences, T}).to(impl_->device);
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    Impl::AblationScope scope(*impl_, ablate);
    auto reading = impl_->model->read(tokens, true, false);
    HeadCopyScores out;
    out.layers = c.layers;
    out.heads = c.heads;
    out.length = length;
    out.sequences = sequences;
    out.seed = seed;
    out.ablated = ablate.heads;
    out.ablation = ablate.mean ? "mean" : "zero";
    // Queries i = n + 1 .. 2n (the repeat); induction reads column i - n + 1, previous-token column i - 1.
    const auto queries =
        torch::arange(n + 1, 2 * n + 1, torch::TensorOptions().dtype(torch::kLong).device(impl_->device));
    for (const auto& a : reading.attention) { // [B, H, T, T]
        const auto rows = a.index_select(2, queries); // [B, H, n, T]
        const auto induction =
            rows.gather(3, (queries - n + 1).view({1, 1, n, 1}).expand({a.size(0), a.size(1), n, 1}));
        const auto previous = rows.gather(3, (queries - 1).view({1, 1, n, 1}).expand({a.size(0), a.size(1), n, 1}));
        const auto i = hostFloats(induction.mean({0, 2, 3}).to(torch::kCPU).contiguous());
        const auto p = hostFloats(previous.mean({0, 2, 3}).to(torch::kCPU).contiguous());
        out.induction.emplace_back(i.begin(), i.end());
        out.previousToken.emplace_back(p.begin(), p.end());
    }
    // Position t predicts token t + 1: the first copy's tokens 2..n are targets at positions 1..n-1, the repeat's
    // tokens 2..n (positions n + 2 .. 2n) at positions n + 1 .. 2n - 1.
    const auto logProbabilities = torch::log_softmax(reading.logits.narrow(1, 0, T - 1), -1); // [B, T-1, V]
    const auto targets = tokens.narrow(1, 1, T - 1).unsqueeze(-1);
    const auto loss = -logProbabilities.gather(2, targets).squeeze(-1); // [B, T-1]
    out.firstHalfLoss = loss.narrow(1, 1, n - 1).mean().item<double>();
    out.repeatedHalfLoss = loss.narrow(1, n + 1, n - 1).mean().item<double>();
    out.seconds = loadTimeSince(start);
    return out;
}

const LlamaConfig& PretrainedLanguageModel::config() const
{
    return impl_->config;
}
const ByteLevelBpeTokenizer& PretrainedLanguageModel::tokenizer() const
{
    return *impl_->tokenizer;
}
const std::string& PretrainedLanguageModel::path() const
{
    return impl_->path;
}
std::string PretrainedLanguageModel::deviceName() const
{
    return impl_->device.str();
}
std::int64_t PretrainedLanguageModel::parameterCount() const
{
    return impl_->config.parameters();
}
double PretrainedLanguageModel::loadSeconds() const
{
    return impl_->loadSeconds;
}

} // namespace attnlab
