#include "core/training/PretrainedEncoder.h"

#include "core/analysis/AttentionRollout.h"
#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/install/DatasetManifest.h"
#include "core/data/pretrained/SafetensorsFile.h"
#include "core/nn/layers/AttentionInputRecorder.h"
#include "core/nn/layers/PositionEncoding.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/models/BertEncoder.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>

namespace attnlab {

namespace fs = std::filesystem;

struct PretrainedEncoder::Impl {
    std::string folder;
    BertConfig config;
    std::unique_ptr<WordPieceTokenizer> tokenizer;
    mutable BertEncoder model{nullptr}; // forward() is not const in LibTorch; calls are serialised by the mutex
    std::int64_t parameters = 0;
    double loadSeconds = 0;
    mutable std::mutex mutex;

    BertEncoderImpl::Output forward(const std::vector<int>& ids) const
    {
        std::vector<int64_t> wide(ids.begin(), ids.end());
        const auto input = torch::tensor(wide, torch::kLong).unsqueeze(0);
        torch::NoGradGuard noGrad;
        std::lock_guard<std::mutex> lock(mutex);
        return model->forward(input);
    }

    static std::vector<AttentionMap> maps(const std::vector<torch::Tensor>& attentions)
    {
        std::vector<AttentionMap> out;
        for (std::size_t l = 0; l < attentions.size(); ++l) {
            const auto a = attentions[l][0].contiguous(); // [heads, T, T]
            const int heads = static_cast<int>(a.size(0)), size = static_cast<int>(a.size(1));
            for (int h = 0; h < heads; ++h) {
                AttentionMap m;
                m.layer = static_cast<int>(l);
                m.head = h;
                m.size = size;
                const float* p = a[h].data_ptr<float>();
                m.weights.assign(p, p + static_cast<std::size_t>(size) * size);
                out.push_back(std::move(m));
            }
        }
        return out;
    }
};

std::string PretrainedEncoder::locate(const std::string& id, const std::string& explicitDataDir)
{
    const DatasetManifest* manifest = DatasetManifest::find(id);
    if (!manifest || manifest->task != "pretrained")
        throw DataError(id, 0, "not a pretrained model's id (File > Datasets... lists them)");
    return DataLocator::join(DataLocator::locate(manifest->folder, explicitDataDir), manifest->folder);
}

ModelConfig PretrainedEncoder::classifierConfig(const ModelConfig& base, const BertConfig& bert)
{
    ModelConfig m = base;
    m.position = "learned";
    m.dModel = bert.hiddenSize;
    m.layers = bert.layers;
    m.heads = bert.heads;
    m.ffnHidden = bert.intermediateSize;
    m.maxLength = bert.maxPositions;
    m.activation = "gelu";
    m.vocabularySize = bert.vocabSize + 2; // Vocabulary's <pad> and <unk>, then every piece
    return m;
}

void PretrainedEncoder::checkFolder(const std::string& folder)
{
    for (const char* name : {"config.json", "vocab.txt", "model.safetensors"})
        if (!fs::exists(fs::path(folder) / name))
            throw DataError((fs::path(folder) / name).string(), 0,
                            "missing: a pretrained model's folder holds config.json, vocab.txt and model.safetensors");
}

PretrainedEncoder::PretrainedEncoder(const std::string& folder) : impl_(std::make_unique<Impl>())
{
    const auto start = std::chrono::steady_clock::now();
    impl_->folder = folder;
    checkFolder(folder);
    impl_->config = BertConfig::fromFile((fs::path(folder) / "config.json").string());
    impl_->tokenizer = std::make_unique<WordPieceTokenizer>(WordPieceTokenizer::fromFolder(folder));
    if (impl_->tokenizer->size() != impl_->config.vocabSize)
        throw DataError((fs::path(folder) / "vocab.txt").string(), 0,
                        std::to_string(impl_->tokenizer->size()) + " entries, but config.json's vocab_size is " +
                            std::to_string(impl_->config.vocabSize));
    const SafetensorsFile weights((fs::path(folder) / "model.safetensors").string());
    impl_->model = BertEncoder(impl_->config, 0.1);
    impl_->parameters = impl_->model->load(weights);
    impl_->model->eval();
    impl_->loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

PretrainedEncoder::~PretrainedEncoder() = default;

PretrainedEncoder::Outputs PretrainedEncoder::run(const std::vector<int>& ids) const
{
    for (int id : ids)
        if (id < 0 || id >= impl_->config.vocabSize)
            throw std::invalid_argument("token id " + std::to_string(id) + " is outside the vocabulary (0.." +
                                        std::to_string(impl_->config.vocabSize - 1) + ")");
    if (ids.empty() || static_cast<int>(ids.size()) > impl_->config.maxPositions)
        throw std::invalid_argument("an input of " + std::to_string(ids.size()) + " tokens: the model reads 1 to " +
                                    std::to_string(impl_->config.maxPositions));
    const auto out = impl_->forward(ids);
    Outputs r;
    const auto hidden = out.lastHidden[0].contiguous();
    r.lastHidden = hostFloats(hidden);
    const auto pooled = out.pooled[0].contiguous();
    r.pooled = hostFloats(pooled);
    r.maps = Impl::maps(out.attentions);
    return r;
}

ModelExplanation PretrainedEncoder::explain(const std::string& text) const
{
    ModelExplanation out;
    out.text = text;
    out.maxLength = impl_->config.maxPositions;
    out.weights = "pretrained";
    const auto encoding = impl_->tokenizer->encode(text, impl_->config.maxPositions);
    out.tokens = encoding.tokens;
    out.pieceWords = encoding.words;
    out.truncatedTokens = encoding.truncated;
    for (int id : encoding.ids)
        out.unknown.push_back(id == impl_->tokenizer->unkId());
    out.attention.tokens = out.tokens;
    out.attention.maps = Impl::maps(impl_->forward(encoding.ids).attentions);
    out.rollout = AttentionRollout::of(out.attention.maps);
    return out;
}

AttentionStepByStep PretrainedEncoder::stepByStep(const std::string& text, int layer, int head, int query) const
{
    const auto encoding = impl_->tokenizer->encode(text, impl_->config.maxPositions);
    if (query < 0 || static_cast<std::size_t>(query) >= encoding.tokens.size())
        throw std::invalid_argument("query: piece " + std::to_string(query) + " is past the text's " + std::to_string(encoding.tokens.size()) +
                                    " pieces (0 is [CLS])");
    AttentionInputRecorder recorder; // each BertLayer keeps its input for the step-by-step pass
    impl_->forward(encoding.ids);
    auto steps = recorder.stepByStep(layer, head, query, impl_->config.nameOrPath.empty() ? "pretrained" : impl_->config.nameOrPath);
    steps.tokens = encoding.tokens;
    return steps;
}

std::vector<PositionView> PretrainedEncoder::positionViews(int length) const
{
    length = std::max(1, std::min(length, impl_->config.maxPositions));
    torch::NoGradGuard noGrad;
    const auto table = impl_->model->positionEmbeddings().slice(0, 0, length).contiguous(); // [length, hidden]
    std::vector<std::string> positions;
    for (int i = 0; i < length; ++i)
        positions.push_back(std::to_string(i));
    PositionView vectors;
    vectors.name = "learned position embeddings";
    vectors.about = "The pretrained model's absolute position vectors, one row per position (first 64 of " +
                    std::to_string(impl_->config.hiddenSize) + " dimensions), added to each token's embedding.";
    vectors.rowLabel = "position";
    vectors.columnLabel = "dimension";
    vectors.rows = positions;
    const int dims = std::min<int>(64, impl_->config.hiddenSize);
    for (int d = 0; d < dims; ++d)
        vectors.columns.push_back(std::to_string(d));
    const auto shown = table.slice(1, 0, dims).contiguous();
    vectors.values = hostFloats(shown);
    PositionView similarity;
    similarity.name = "learned positions: cosine similarity";
    similarity.about = "cos(p_i, p_j) of the learned position vectors: how alike the model made positions i and j.";
    similarity.rowLabel = "position";
    similarity.columnLabel = "position";
    similarity.rows = positions;
    similarity.columns = positions;
    const auto unit = torch::nn::functional::normalize(table, torch::nn::functional::NormalizeFuncOptions().dim(1));
    const auto cosine = torch::matmul(unit, unit.t()).contiguous();
    similarity.values = hostFloats(cosine);
    // The same matrix for sinusoidal encodings of the same size (Vaswani et al. 2017, thesis eq. 3.5), beside
    // it: learned vs fixed positions. In double, so the band's values do not carry float's rounding.
    const auto sinusoid = PositionEncoding::sinusoidal(length, impl_->config.hiddenSize,
                                                       torch::TensorOptions().dtype(torch::kDouble));
    const auto unitSinusoid =
        torch::nn::functional::normalize(sinusoid, torch::nn::functional::NormalizeFuncOptions().dim(1));
    const auto fixedCosine = torch::matmul(unitSinusoid, unitSinusoid.t()).to(torch::kFloat).contiguous();
    PositionView fixed = similarity;
    fixed.name = "sinusoidal positions: cosine similarity";
    fixed.about = "cos(PE_i, PE_j) of sinusoidal encodings of the same size (Vaswani et al. 2017), for comparison: "
                  "a smooth band that depends on |i - j| only.";
    fixed.values = hostFloats(fixedCosine);
    return {similarity, fixed, vectors};
}

const BertConfig& PretrainedEncoder::config() const { return impl_->config; }
const WordPieceTokenizer& PretrainedEncoder::tokenizer() const { return *impl_->tokenizer; }
const std::string& PretrainedEncoder::folder() const { return impl_->folder; }
std::int64_t PretrainedEncoder::parameterCount() const { return impl_->parameters; }
double PretrainedEncoder::loadSeconds() const { return impl_->loadSeconds; }

} // namespace attnlab
