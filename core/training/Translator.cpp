#include "core/training/Translator.h"
#include "core/config/DecodingSettings.h"

#include "core/data/SubwordModel.h"
#include "core/data/Tokenizer.h"
#include "core/data/TranslationText.h"
#include "core/data/Vocabulary.h"
#include "core/data/readers/SyntheticTranslation.h"
#include "core/nn/layers/AttentionInputRecorder.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/results/AttentionAverage.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ModelCheckpoint.h"
#include "core/nn/training/SequenceDecoder.h"
#include "core/nn/training/TranslationTask.h"

#include <nlohmann/json.hpp>

#include <mutex>
#include <numeric>
#include <stdexcept>

namespace attnlab {
namespace {


// A hypothesis' own attention [steps, layers * heads, S] as one map per layer and head.
std::vector<AttentionMap> hypothesisMaps(const torch::Tensor& attention, int heads, int64_t sourceLength)
{
    std::vector<AttentionMap> maps;
    if (!attention.defined())
        return maps;
    for (int64_t lh = 0; lh < attention.size(1); ++lh) {
        AttentionMap m;
        m.layer = static_cast<int>(lh / heads);
        m.head = static_cast<int>(lh % heads);
        m.size = static_cast<int>(attention.size(0));
        m.columns = static_cast<int>(sourceLength);
        const auto w = attention.select(1, lh).slice(1, 0, sourceLength).contiguous();
        m.weights = hostFloats(w);
        maps.push_back(std::move(m));
    }
    return maps;
}

} // namespace

struct Translator::Impl {
    TrainConfig config;
    std::shared_ptr<Seq2SeqModel> model;
    Vocabulary source, target;
    std::unique_ptr<Tokenizer> tokenizer;       // words, or...
    std::unique_ptr<SubwordModel> subwords;     // ...the source side's SentencePiece model (the target's pieces are decoded without one)
    std::unique_ptr<SubwordModel> targetSubwords; // a typed target (force) split as training split the targets
    std::string syntheticTask;                  // "reverse", "copy", "sort", "dates" for the built-in tasks, else ""
    bool lowercase = false;
    std::string tokenizerName;
    std::string weights;
    int step = 0;
    mutable std::mutex mutex;

    std::vector<std::string> split(const std::string& text, const SubwordModel* pieces) const
    {
        return pieces ? pieces->encode(lowercase ? Tokenizer::lowercased(text) : text) : tokenizer->tokenize(text);
    }
    std::vector<std::string> wordsOf(const std::vector<std::int64_t>& tokens) const
    {
        std::vector<std::string> words;
        for (auto id : tokens)
            words.push_back(target.token(id));
        return words;
    }
    // One teacher-forced pass over (source, target ids) filling what decoding did not: every attention (self and
    // cross; cross only where `cross`), each word's and <eos>'s probability where `probabilities`, and the
    // likeliest `alternatives` tokens of each row.
    void fillForced(Translation& t, const std::vector<std::int64_t>& source, const std::vector<std::int64_t>& words,
                    bool cross, bool probabilities, int alternatives) const
    {
        PairIds one;
        one.source.push_back(source);
        one.target.push_back(words);
        const auto pass = PairBatch::of(one, {0}, torch::kCPU);
        const auto result = model->forced(pass.source, pass.sourceMask, pass.targetIn);
        const auto sourceLength = static_cast<int64_t>(source.size());
        const auto targetLength = static_cast<int64_t>(words.size()) + 1;
        if (cross)
            t.cross = Seq2SeqModel::mapsOfFirst(result.cross, targetLength, sourceLength, false);
        t.encoderSelf = Seq2SeqModel::mapsOfFirst(result.encoderSelf, sourceLength, sourceLength, true);
        t.decoderSelf = Seq2SeqModel::mapsOfFirst(result.decoderSelf, targetLength, targetLength, true);
        const auto p = torch::softmax(result.logits[0].slice(0, 0, targetLength).to(torch::kFloat), -1); // [T+1, V]
        if (probabilities) {
            const auto chosen = p.gather(1, pass.targetOut[0].slice(0, 0, targetLength).unsqueeze(1)).squeeze(1).contiguous();
            t.probabilities = hostFloats(chosen);
        }
        if (alternatives > 0) {
            const auto [values, indices] = p.topk(std::min<int64_t>(alternatives, p.size(1)), 1);
            const auto v = values.contiguous();
            const auto ix = indices.contiguous();
            t.alternatives.assign(static_cast<std::size_t>(targetLength), {});
            for (int64_t r = 0; r < targetLength; ++r)
                for (int64_t k = 0; k < v.size(1); ++k) {
                    const auto id = ix[r][k].item<std::int64_t>();
                    t.alternatives[static_cast<std::size_t>(r)].push_back(
                        {id == Seq2SeqModel::kEos ? std::string("<eos>") : target.token(id), v[r][k].item<float>()});
                }
        }
    }
    // A built-in sequence task's right answer for the source, and the AER of the cross-attention against its gold.
    void addGold(Translation& t) const
    {
        if (syntheticTask.empty() || t.sourceTokens.empty())
            return;
        const auto answer = SyntheticTranslation::answer(syntheticTask, t.sourceTokens);
        if (answer.target.empty())
            return;
        t.reference = answer.target;
        std::vector<bool> linked(answer.target.size(), false);
        for (const auto& [s, w] : answer.alignment) {
            t.gold.push_back({s, w});
            linked[static_cast<std::size_t>(w)] = true;
        }
        if (t.cross.empty() || t.targetTokens.size() != answer.target.size())
            return;
        // As TranslationTask measures a split: one argmax link a gold-linked row, of the last layer's mean over its
        // heads (the alignment), and of each map alone (which head aligns).
        const int rows = static_cast<int>(answer.target.size()), columns = static_cast<int>(t.sourceTokens.size());
        const auto aerOf = [&](const std::vector<float>& weights) {
            std::vector<AlignmentLink> predicted;
            for (const auto& link : AlignmentErrorRate::argmaxLinks(weights.data(), rows, columns))
                if (linked[static_cast<std::size_t>(link.target)])
                    predicted.push_back(link);
            return AlignmentErrorRate::sentence(predicted, t.gold).aer();
        };
        for (const auto& m : t.cross)
            t.headAlignmentErrorRates.push_back(aerOf(m.weights)); // rows beyond the answer's (<eos>) are not read
        t.alignmentErrorRate = aerOf(AttentionAverage::ofLastLayer(t.cross).weights);
    }
};

Translator::Translator(const CheckpointRef& checkpoint) : impl_(std::make_unique<Impl>())
{
    auto opened = ModelCheckpoint::open(checkpoint);
    const std::string where = "checkpoint " + checkpoint.path;
    try {
        const auto meta = nlohmann::json::parse(opened.metadataJson);
        if (meta.at("format").get<int>() > ModelCheckpoint::kFormat)
            throw std::runtime_error("written by a newer Attention Lab (format " + meta.at("format").dump() + ")");
        const auto& task = meta.at("task");
        if (task.at("task") != "translation")
            throw std::runtime_error("not a translation model (attnlab-cli explain shows what a classifier makes of a sentence)");
        impl_->config = TrainConfig::fromJson(meta.at("config").dump());
        const auto& sizes = meta.at("sizes");
        impl_->config.model.vocabularySize = sizes.at("vocabulary_size").get<int>();
        impl_->config.model.targetVocabularySize = sizes.at("target_vocabulary_size").get<int>();
        impl_->config.model.embeddingDim = sizes.at("embedding_dim").get<int>();
        impl_->weights = meta.at("kind").get<std::string>();
        impl_->step = meta.at("step").get<int>();
        auto fill = [&](Vocabulary& vocabulary, const nlohmann::json& tokens, std::size_t first, int expected, const char* side) {
            const auto list = tokens.get<std::vector<std::string>>();
            for (std::size_t id = first; id < list.size(); ++id)
                vocabulary.add(list[id]);
            if (vocabulary.size() != expected)
                throw std::runtime_error(std::string("its ") + side + " vocabulary has " + std::to_string(vocabulary.size()) +
                                         " entries, its model " + std::to_string(expected));
        };
        fill(impl_->source, task.at("source_vocabulary"), 2, impl_->config.model.vocabularySize, "source");
        fill(impl_->target, task.at("target_vocabulary"), 2, impl_->config.model.targetVocabularySize, "target");
        impl_->tokenizerName = task.at("tokenizer").get<std::string>();
        impl_->lowercase = task.at("lowercase").get<bool>();
        if (SubwordModel::isKind(impl_->tokenizerName)) {
            impl_->subwords = std::make_unique<SubwordModel>(
                SubwordModel::fromText(task.at("source_subwords").get<std::string>(), impl_->tokenizerName, "source_subwords"));
            impl_->targetSubwords = std::make_unique<SubwordModel>(
                SubwordModel::fromText(task.at("target_subwords").get<std::string>(), impl_->tokenizerName, "target_subwords"));
        } else
            impl_->tokenizer = std::make_unique<Tokenizer>(Tokenizer::styleFromName(impl_->tokenizerName), impl_->lowercase);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(where + ": its settings are incomplete (" + e.what() + ")");
    } catch (const std::exception& e) {
        throw std::runtime_error(where + ": " + e.what());
    }
    if (impl_->config.dataset.rfind("synthetic-", 0) == 0)
        impl_->syntheticTask = impl_->config.dataset.substr(10);
    impl_->model = ModelFactory::createTranslator(impl_->config.model);
    ModelCheckpoint::loadInto(*impl_->model, opened, checkpoint, impl_->config.model.model);
    impl_->model->to(torch::kCPU);
    impl_->model->eval();
}

Translator::~Translator() = default;

const TrainConfig& Translator::config() const { return impl_->config; }
std::string Translator::weights() const { return impl_->weights; }
int Translator::step() const { return impl_->step; }

Translation Translator::translate(const std::string& text, const Decoding& decoding) const
{
    return translateAll({text}, decoding).front();
}

std::vector<Translation> Translator::translateAll(const std::vector<std::string>& texts, const Decoding& decoding,
                                                  const std::function<void(std::size_t, std::size_t)>& progress) const
{
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    auto& model = *impl_->model;
    const int beamSize = decoding.beamSize.value_or(impl_->config.beamSize);
    const double alpha = decoding.lengthPenalty.value_or(impl_->config.lengthPenalty);
    for (const auto& problem : {DecodingSettings::beamProblem(beamSize), DecodingSettings::lengthPenaltyProblem(alpha),
                                decoding.sampling ? decoding.sampling->problem() : std::string()})
        if (!problem.empty())
            throw std::invalid_argument(problem);
    if (decoding.sampling && beamSize > 1)
        throw std::invalid_argument("sampling: a drawn translation is one hypothesis; it needs a beam of 1, not " + std::to_string(beamSize));
    std::vector<Translation> out(texts.size());
    PairIds ids;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto& t = out[i];
        t.sourceTokens = impl_->split(texts[i], impl_->subwords.get());
        if (t.sourceTokens.size() > static_cast<std::size_t>(impl_->config.model.maxLength))
            t.sourceTokens.resize(static_cast<std::size_t>(impl_->config.model.maxLength));
        std::vector<std::int64_t> row;
        for (const auto& w : t.sourceTokens) {
            row.push_back(impl_->source.id(w));
            t.unknownSourceTokens += row.back() == Vocabulary::kUnknown;
        }
        ids.source.push_back(std::move(row));
        ids.target.emplace_back();
        t.beamSize = beamSize;
        t.lengthPenalty = alpha;
        if (decoding.sampling) {
            t.sampled = true;
            t.temperature = decoding.sampling->temperature;
            t.topK = decoding.sampling->topK;
            t.topP = decoding.sampling->topP;
            t.seed = decoding.sampling->seed + i;
        }
    }
    // In order of length and in batches of the evaluation's size, as TranslationTask::evaluate decodes a split.
    // An empty line translates to nothing (a file keeps its line count); the rest are decoded.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < texts.size(); ++i)
        if (!ids.source[i].empty())
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids.source[a].size() < ids.source[b].size(); });
    auto wordsOf = [&](const std::vector<std::int64_t>& tokens) { return impl_->wordsOf(tokens); };
    std::size_t done = texts.size() - order.size();
    for (std::size_t first = 0; first < order.size(); first += TranslationTask::kDecodeBatch) {
        std::vector<std::size_t> rows(order.begin() + static_cast<std::ptrdiff_t>(first),
                                      order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), first + TranslationTask::kDecodeBatch)));
        const auto batch = PairBatch::of(ids, rows, torch::kCPU);
        auto settings = TranslationTask::decodingOf(impl_->config); // as the run's evaluation decodes, unless told otherwise
        settings.beamSize = beamSize;
        settings.lengthPenalty = alpha;
        settings.sampling = decoding.sampling;
        for (auto row : rows)
            if (decoding.sampling)
                settings.seeds.push_back(decoding.sampling->seed + row);
        const auto decoded = SequenceDecoder::decode(model, batch.source, batch.sourceMask, settings);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            auto& t = out[rows[i]];
            const auto& best = decoded[i].front();
            t.targetTokens = wordsOf(best.tokens);
            t.text = TranslationText::detokenize(t.targetTokens, impl_->tokenizerName);
            t.score = best.score;
            for (float lp : best.logProbabilities)
                t.probabilities.push_back(std::exp(lp));
            if (!decoding.withAttention)
                continue;
            if (beamSize > 1)
                for (const auto& h : decoded[i]) {
                    TranslationHypothesis hypothesis;
                    hypothesis.tokens = wordsOf(h.tokens);
                    hypothesis.text = TranslationText::detokenize(hypothesis.tokens, impl_->tokenizerName);
                    for (float lp : h.logProbabilities)
                        hypothesis.probabilities.push_back(std::exp(lp));
                    hypothesis.logProbability = h.logProbability;
                    hypothesis.score = h.score;
                    hypothesis.finished = h.finished;
                    hypothesis.parents = h.parents;
                    hypothesis.cross = hypothesisMaps(h.attention, std::max(1, model.attentionHeads()),
                                                      static_cast<int64_t>(t.sourceTokens.size()));
                    t.hypotheses.push_back(std::move(hypothesis));
                }
            // Every attention of the kept translation: a recurrent decoder's is the one it decoded with (a second,
            // teacher-forced pass would give the same numbers at twice the time); the Transformer's self-attention
            // comes from one teacher-forced pass over the translation.
            if (!model.hasSelfAttention())
                t.cross = hypothesisMaps(best.attention, 1, static_cast<int64_t>(t.sourceTokens.size()));
            if (model.hasSelfAttention() || decoding.alternatives > 0)
                impl_->fillForced(t, ids.source[rows[i]], best.tokens, model.hasSelfAttention(), false, decoding.alternatives);
            impl_->addGold(t);
        }
        done += rows.size();
        if (progress)
            progress(done, texts.size());
    }
    return out;
}

Translation Translator::force(const std::string& source, const std::string& target, const Decoding& decoding) const
{
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    Translation t;
    t.forced = true;
    t.sourceTokens = impl_->split(source, impl_->subwords.get());
    if (t.sourceTokens.size() > static_cast<std::size_t>(impl_->config.model.maxLength))
        t.sourceTokens.resize(static_cast<std::size_t>(impl_->config.model.maxLength));
    t.targetTokens = impl_->split(target, impl_->targetSubwords.get());
    if (t.sourceTokens.empty() || t.targetTokens.empty())
        throw std::invalid_argument(t.sourceTokens.empty() ? "the source has no words" : "the forced target has no words");
    std::vector<std::int64_t> sourceIds, targetIds;
    for (const auto& w : t.sourceTokens) {
        sourceIds.push_back(impl_->source.id(w));
        t.unknownSourceTokens += sourceIds.back() == Vocabulary::kUnknown;
    }
    for (const auto& w : t.targetTokens) {
        targetIds.push_back(impl_->target.id(w));
        t.unknownTargetTokens += targetIds.back() == Vocabulary::kUnknown;
    }
    t.text = TranslationText::detokenize(t.targetTokens, impl_->tokenizerName);
    t.beamSize = 1;
    impl_->fillForced(t, sourceIds, targetIds, true, true, decoding.alternatives);
    double logProbability = 0.0;
    for (float p : t.probabilities)
        logProbability += std::log(std::max(p, 1e-30f));
    t.score = logProbability;
    impl_->addGold(t);
    return t;
}

AttentionStepByStep Translator::stepByStep(const std::string& source, const std::string& target, const std::string& asked, int layer,
                                           int head, int query) const
{
    if (asked != "encoder" && asked != "decoder" && asked != "cross" && !asked.empty())
        throw std::invalid_argument("part: encoder, decoder or cross (got '" + asked + "')");
    if (source.find_first_not_of(" \t\r\n") == std::string::npos)
        throw std::invalid_argument("text: it has no words to translate");
    const bool typed = target.find_first_not_of(" \t\r\n") != std::string::npos;
    const auto words = typed ? std::vector<std::string>() : translate(source).targetTokens; // before the lock: translate takes it
    std::lock_guard<std::mutex> lock(impl_->mutex);
    torch::NoGradGuard noGrad;
    auto sourceTokens = impl_->split(source, impl_->subwords.get());
    if (sourceTokens.size() > static_cast<std::size_t>(impl_->config.model.maxLength))
        sourceTokens.resize(static_cast<std::size_t>(impl_->config.model.maxLength));
    auto rows = typed ? impl_->split(target, impl_->targetSubwords.get()) : words;
    PairIds one;
    one.source.emplace_back();
    one.target.emplace_back();
    for (const auto& w : sourceTokens)
        one.source.back().push_back(impl_->source.id(w));
    for (const auto& w : rows)
        one.target.back().push_back(impl_->target.id(w));
    rows.push_back("<eos>");
    const auto batch = PairBatch::of(one, {0}, torch::kCPU);
    auto& model = *impl_->model;
    std::size_t encoderPasses = 0; // the encoder's own self-attention passes come first in the forced pass
    {
        AttentionInputRecorder encoder;
        model.encode(batch.source, batch.sourceMask);
        encoderPasses = encoder.calls().size();
    }
    AttentionInputRecorder recorder;
    model.forced(batch.source, batch.sourceMask, batch.targetIn);
    auto passesOf = [&](const std::string& which) {
        std::vector<AttentionInputRecorder::Call> chosen;
        std::size_t selfPasses = 0;
        for (const auto& call : recorder.calls()) {
            const bool inEncoder = !call.cross && selfPasses++ < encoderPasses;
            if ((which == "cross" && call.cross) || (which == "encoder" && inEncoder) || (which == "decoder" && !call.cross && !inEncoder))
                chosen.push_back(call);
        }
        return chosen;
    };
    std::string part = asked; // none asked: the first the model has of cross-attention, the decoder's, the encoder's
    for (const char* candidate : {"cross", "decoder", "encoder"})
        if (part.empty() && !passesOf(candidate).empty())
            part = candidate;
    if (part.empty())
        throw std::invalid_argument("part: a " + impl_->config.model.model + " has no attention to take step by step");
    const auto chosen = passesOf(part);
    if (chosen.empty())
        throw std::invalid_argument("part: a " + impl_->config.model.model + " has no " +
                                    (part == "cross" ? std::string("cross-attention taken step by step (its decoder is recurrent)")
                                                     : part + " self-attention (its " + part + " is recurrent)"));
    const auto& queries = part == "encoder" ? sourceTokens : rows;
    if (query < 0 || static_cast<std::size_t>(query) >= queries.size())
        throw std::invalid_argument("query: row " + std::to_string(query) + " is past the " + std::to_string(queries.size()) + " " +
                                    (part == "encoder" ? "source tokens" : "rows of the translation (its words and <eos>)") + " (0 is the first)");
    auto steps = AttentionInputRecorder::stepByStep(chosen, layer, head, query, part == "encoder" ? "the encoder" : "the decoder",
                                                    part == "cross" ? "cross-attention" : "self-attention");
    steps.part = part;
    steps.tokens = part == "decoder" ? rows : sourceTokens;
    if (part == "cross")
        steps.queryTokens = rows;
    return steps;
}

std::pair<std::string, std::int64_t> Translator::describe(const ModelConfig& model)
{
    if (auto problem = model.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const auto built = ModelFactory::createTranslator(model);
    return {built->summary(), built->trainableParametersWithoutEmbedding()};
}

} // namespace attnlab
