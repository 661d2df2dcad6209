#include "core/config/ModelConfig.h"

#include "core/config/Registry.h"

#include <algorithm>
#include <utility>

namespace attnlab {
namespace {
std::string joined(const std::vector<std::string>& items)
{
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}
bool contains(const std::vector<std::string>& items, const std::string& x)
{
    return std::find(items.begin(), items.end(), x) != items.end();
}
std::vector<std::string> splitPoints(const std::string& list)
{
    std::vector<std::string> points;
    std::string current;
    for (char c : list + ",") {
        if (c == ',') {
            if (!current.empty())
                points.push_back(current);
            current.clear();
        } else if (c != ' ') {
            current += c;
        }
    }
    return points;
}
} // namespace

std::vector<std::string> ModelConfig::activeDropoutPoints() const
{
    if (dropoutPoints == "none")
        return {};
    if (!dropoutPoints.empty())
        return splitPoints(dropoutPoints);
    const ModelSpec* entry = Registry::model(model);
    return entry ? entry->dropoutDefault : std::vector<std::string>{};
}

double ModelConfig::keepAt(const std::string& point) const
{
    if (!contains(activeDropoutPoints(), point))
        return 1.0;
    const double specific = point == "input" ? dropoutInputKeep : point == "hidden" ? dropoutHiddenKeep : dropoutOutputKeep;
    return specific > 0.0 ? specific : dropoutKeep;
}

TaskKind ModelConfig::dataTask() const
{
    if (isRegression())
        return TaskKind::Regression;
    if (isTranslation())
        return TaskKind::Translation;
    if (numClasses > 0)
        return TaskKind::Classification;
    const ModelSpec* spec = Registry::model(model);
    return spec && spec->servesTask(TaskKind::LanguageModel) ? TaskKind::LanguageModel : TaskKind::Classification;
}

std::string ModelConfig::validate() const
{
    const ModelSpec* entry = Registry::model(model);
    if (!entry)
        return "model: unknown id '" + model + "' (known: " + Registry::idList(Registry::models()) + ")";
    const TaskKind task = dataTask();
    if (!entry->servesTask(task))
        return "model: '" + model + "' is a " + entry->tasks.nouns() + " model; this dataset needs " +
            taskKindNoun(task) + " (models for it: " + Registry::modelsFor(task) + ")";
    if (!Registry::find(Registry::positions(), position))
        return "position: unknown id '" + position + "' (known: " + Registry::idList(Registry::positions()) + ")";
    if (!entry->takesPosition(position))
        return "position: '" + position + "' does not apply to model '" + model + "' (it takes: " + joined(entry->positions) + ")";
    if (dModel < 1)
        return "d_model: must be at least 1 (got " + std::to_string(dModel) + ")";
    if (embeddingDim < 0)
        return "embedding_dim: must be 0 (= d_model) or positive (got " + std::to_string(embeddingDim) + ")";
    if (layers < 1)
        return "layers: must be at least 1 (got " + std::to_string(layers) + ")";
    if (heads < 1 || dModel % heads != 0)
        return "heads: " + std::to_string(heads) + " heads do not divide d_model " + std::to_string(dModel) +
               " (each head gets d_model / heads dimensions)";
    if (position == "rpr" && rprClip < 1)
        return "rpr_clip: the clipping distance k must be at least 1 (got " + std::to_string(rprClip) + ")";
    if (position == "rope" && (dModel / heads) % 2 != 0)
        return "heads: rope rotates pairs of dimensions, so d_model / heads must be even (got " +
               std::to_string(dModel / heads) + ")";
    if (maxLength < 1)
        return "max_length: must be at least 1 token (longer inputs are truncated to it; got " + std::to_string(maxLength) + ")";
    if (position == "sinusoidal" && inputDim() % 2 != 0)
        return "embedding_dim: sinusoidal encodings need an even width (got " + std::to_string(inputDim()) + ")";
    if (ffHidden < 1)
        return "ff_hidden: must be at least 1 (got " + std::to_string(ffHidden) + ")";
    if (ffnHidden < 0)
        return "ffn_hidden: must be 0 (= 4 d_model) or positive (got " + std::to_string(ffnHidden) + ")";
    if (filters < 1)
        return "filters: must be at least 1 (got " + std::to_string(filters) + ")";
    if (inputLength < 0 || (inputLength > 0 && inputLength < 5))
        return "input_length: 0 (the dataset's longest sentence) or at least 5 tokens, the widest filter (4) and a "
               "pooling window of 2 (got " +
            std::to_string(inputLength) + ")";
    if (!activation.empty() && activation != "relu" && activation != "swish" && activation != "gelu")
        return "activation: unknown '" + activation + "' (known: relu, swish, gelu)";
    if (!pooling.empty() && !contains(entry->pooling, pooling))
        return "pooling: '" + pooling + "' does not apply to model '" + model + "'" +
               (entry->pooling.empty() ? std::string(" (it has no pooling choice)") : " (it takes: " + joined(entry->pooling) + ")");
    if (task == TaskKind::LanguageModel) {
        if (context < 1 || context > 4096)
            return "context: a language model's context must be 1 to 4096 tokens (got " + std::to_string(context) + ")";
        if (order < 1 || order > 10)
            return "order: n must be 1 (unigram) to 10, each token read from the n - 1 before it (got " +
                std::to_string(order) + ")";
        if (order < entry->can.minimumOrder)
            return "order: '" + model + "' reads the n - 1 tokens before each one, so n must be " +
                std::to_string(entry->can.minimumOrder) + " to 10 (got " + std::to_string(order) + ")";
        if (smoothing != "kneser-ney" && smoothing != "add-k")
            return "smoothing: unknown '" + smoothing + "' (known: kneser-ney, add-k)";
        if (!(addK > 0.0 && addK <= 100.0))
            return "add_k: must be in (0, 100] (got " + std::to_string(addK) + ")";
        if (cell != "lstm" && cell != "gru" && cell != "rnn" && cell != "irnn")
            return "cell: unknown '" + cell + "' (known: lstm, gru, rnn, irnn)";
    }
    if (!layerNorm.empty() && layerNorm != "pre" && layerNorm != "post" && layerNorm != "none")
        return "layer_norm: unknown '" + layerNorm + "' (known: pre, post, none)";
    if ((!layerNorm.empty() || !residual) && !entry->hasOption(layerNorm.empty() ? "residual" : "layer_norm"))
        return std::string(layerNorm.empty() ? "residual" : "layer_norm") + ": model '" + model +
            "' has no residual blocks to change (" + Registry::modelsWithOption("residual") + " have)";
    if (attentionWindow < 0 || attentionWindow > 4096)
        return "attention_window: 0 (full attention) or 1 to 4096 tokens either side (got " + std::to_string(attentionWindow) + ")";
    if (globalTokens < 0 || globalTokens > 64)
        return "global_tokens: 0 to 64 (got " + std::to_string(globalTokens) + ")";
    if (globalTokens > 0 && attentionWindow == 0)
        return "global_tokens: global tokens belong to a sliding window (set attention_window); full attention already sees everything";
    if (attentionWindow > 0) {
        if (!entry->hasOption("attention_window") || isRegression())
            return "attention_window: model '" + model + "'" +
                (isRegression() ? std::string(" on a time series") : std::string()) +
                " has no self-attention over words to narrow (" + Registry::modelsWithOption("attention_window") +
                " classifiers have)";
        if (uniformAttention)
            return "attention_window: uniform attention has no scores to restrict to a window (leave out one of the two)";
    }
    if (attentionOnly && !entry->hasOption("attention_only"))
        return "attention_only: model '" + model + "' has no MLP blocks to leave out (" +
            Registry::modelsWithOption("attention_only") + " has)";
    if (!scaled && !entry->hasOption("scaled"))
        return "scaled: leaving out the division by sqrt(d_k) is a setting of " + Registry::modelsWithOption("scaled") +
            " (model '" + model + "')";
    if (frozenEncoder && entry->pretrained.empty())
        return "frozen_encoder: model '" + model + "' has no pretrained encoder to freeze (minilm has)";
    if (uniformAttention) {
        if (!entry->hasOption("uniform_attention"))
            return "uniform_attention: model '" + model + "' has no self-attention to make uniform (" +
                Registry::modelsWithOption("uniform_attention") + " have)";
        if (position == "rope" || position == "alibi")
            return "uniform_attention: position '" + position + "' acts on the attention scores, which uniform attention "
                   "does not compute (use none, sinusoidal, learned or rpr)";
    }
    if (!(dropoutKeep > 0.0 && dropoutKeep <= 1.0))
        return "dropout_keep: a keep probability must be in (0, 1] (got " + std::to_string(dropoutKeep) + ")";
    for (const auto& [key, keep] : {std::pair<const char*, double>{"dropout_input_keep", dropoutInputKeep},
                                    {"dropout_hidden_keep", dropoutHiddenKeep}, {"dropout_output_keep", dropoutOutputKeep}})
        if (!(keep == 0.0 || (keep > 0.0 && keep <= 1.0)))
            return std::string(key) + ": a keep probability must be in (0, 1], or 0 for dropout_keep (got " +
                   std::to_string(keep) + ")";
    for (const auto& point : activeDropoutPoints()) {
        if (point != "input" && point != "hidden" && point != "output")
            return "dropout_points: unknown point '" + point + "' (known: input, hidden, output)";
        if (!contains(entry->dropoutAllowed, point))
            return "dropout_points: model '" + model + "' has no '" + point + "' dropout point" +
                   (entry->dropoutAllowed.empty() ? std::string(" (it has none)") : " (it has: " + joined(entry->dropoutAllowed) + ")");
    }
    if (!attentionScore.empty() && attentionScore != "additive" && attentionScore != "dot" && attentionScore != "general" &&
        attentionScore != "concat")
        return "attention_score: unknown '" + attentionScore + "' (known: additive, dot, general, concat)";
    if (alignment != "global" && alignment != "local-m" && alignment != "local-p")
        return "alignment: unknown '" + alignment + "' (known: global, local-m, local-p)";
    if (alignment != "global" && localWindow < 1)
        return "local_window: Luong's local attention needs a window D of at least 1 (got " + std::to_string(localWindow) + ")";
    if (isTranslation()) {
        if (entry->can.transformerLayers && embeddingDim > 0 && embeddingDim != dModel)
            return "embedding_dim: model '" + model + "' scales word vectors of d_model (" + std::to_string(dModel) +
                   ") into its Transformer layers, so it takes no other size (got " + std::to_string(embeddingDim) + ")";
        if (!entry->can.recurrentDecoder && (!attentionScore.empty() || alignment != "global"))
            return std::string(attentionScore.empty() ? "alignment" : "attention_score") + ": model '" + model +
                "' has a Transformer decoder, whose cross-attention is scaled dot products over the whole source "
                "(scores and local alignments are the recurrent decoders': " +
                Registry::modelsWithOption("attention_score") + ")";
        if (!attentionScore.empty() && !entry->hasOption("attention_score"))
            return "attention_score: model '" + model + "' has no attention (" +
                Registry::modelsWithOption("attention_score") + " have)";
        if (alignment != "global" && !entry->hasOption("alignment"))
            return "alignment: local attention is Luong's (models " + Registry::modelsWithOption("alignment") + "); '" +
                model + "' attends globally";
        if (vocabularySize < 3 || targetVocabularySize < 5)
            return "vocabulary: the dataset gave too few tokens (" + std::to_string(vocabularySize) + " source, " +
                   std::to_string(targetVocabularySize) + " target)";
        return {};
    }
    if (isRegression())
        return window >= 2 ? std::string() : "window: a time-series model needs at least 2 steps (got " + std::to_string(window) + ")";
    if (task == TaskKind::LanguageModel)
        return vocabularySize >= 1 ? std::string() : "vocabulary: the text gave no tokens";
    if (numClasses < 2)
        return "classes: a classifier needs at least 2 classes (got " + std::to_string(numClasses) + ")";
    if (vocabularySize < 3)
        return "vocabulary: the dataset gave too few tokens (" + std::to_string(vocabularySize) + ")";
    return {};
}

} // namespace attnlab
