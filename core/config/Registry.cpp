#include "core/config/Registry.h"

#include <algorithm>

namespace attnlab {

const std::vector<RegistryEntry>& Registry::datasets()
{
    static const std::vector<RegistryEntry> list = {
        {"synthetic-sentiment", "Synthetic sentiment",
         "Built-in 5-class opinions with negation, intensifiers and contrast ('good but boring'); no download"},
        {"sst-fine", "SST-fine",
         "Stanford Sentiment Treebank, 5 classes, movie reviews (8544/1101/2210; --phrases: 318,582 phrases)"},
        {"sst-binary", "SST-binary", "Stanford Sentiment Treebank without neutral, 2 classes (6920/872/1821)"},
        {"opener", "OpeNER", "Hotel reviews, 4 classes, shortest sentences (2780/186/743)"},
        {"sentube-auto", "SenTube-A", "YouTube comments on automobiles, 2 classes, longest sentences (3381/225/903)"},
        {"sentube-tablets", "SenTube-T", "YouTube comments on tablets, 2 classes (4997/333/1334)"},
        {"semeval2013", "SemEval-2013", "Tweets of SemEval-2013 task 2B, 3 classes (6021/890/2376)"},
        {"csv-text", "Your text (CSV/TSV)", "Your own CSV/TSV of text and label: pick the file and columns"},
        {"sml2010", "SML2010", "Indoor temperature from 16 driving series, window 10 (3200/400/537 windows)",
         TaskKind::Regression},
        {"synthetic-lag", "Synthetic lagged series",
         "Built-in series whose target follows one driver at a known lag (attention ground truth)",
         TaskKind::Regression},
        {"csv-series", "Your series (CSV/TSV)",
         "Your own CSV/TSV of numeric series: pick the target column, window and splits", TaskKind::Regression},
        // Translation: sentence pairs; the synthetic ones carry their gold alignment.
        {"multi30k", "Multi30k",
         "Image descriptions in English, German and French, any direction (--source de --target en; 29000/1014/1000 "
         "pairs)",
         TaskKind::Translation},
        {"synthetic-reverse", "Synthetic reversal",
         "Built-in: a sentence of 25 animal words, reversed; test sentences longer than training ones (gold alignment)",
         TaskKind::Translation},
        {"synthetic-dates", "Synthetic dates",
         "Built-in: dates written a dozen ways ('thursday , the 26th of november 2026') to ISO dates (gold alignment)",
         TaskKind::Translation},
        {"synthetic-copy", "Synthetic copy",
         "Built-in: a sentence of animal words copied, the monotone alignment (gold alignment)", TaskKind::Translation},
        {"synthetic-sort", "Synthetic sorting",
         "Built-in: distinct animal words put in alphabetical order, a permutation to find (gold alignment)",
         TaskKind::Translation},
        {"csv-pairs", "Your sentence pairs (CSV/TSV)",
         "Your own CSV/TSV of source and target sentences, or two files of parallel lines", TaskKind::Translation},
        // Language models: next-token prediction on a stream of characters or words.
        {"tinyshakespeare", "tiny Shakespeare",
         "Karpathy's 1.1 MB of Shakespeare's plays as characters (65), nanoGPT's split: 90% train, 10% validation",
         TaskKind::LanguageModel},
        {"synthetic-repeat", "Repeated random sequences",
         "Built-in: random symbols in which a sequence of 8-16 repeats at a varying distance, the task where induction "
         "heads form",
         TaskKind::LanguageModel},
        {"multi30k-lm", "Multi30k sentences",
         "Multi30k's image descriptions in one language (--target en|de|fr) as words or characters, its own splits: "
         "29000/1014/1000 lines",
         TaskKind::LanguageModel},
        {"text-file", "Your text", "Any UTF-8 text file of yours as characters or words: 90% train, 5% dev, 5% test",
         TaskKind::LanguageModel},
    };
    return list;
}

const std::vector<ModelSpec>& Registry::models()
{
    const std::vector<std::string> san = {"none", "sinusoidal", "learned", "rpr", "rope", "alibi"};
    const std::vector<std::string> onlyNone = {"none"};
    const std::vector<std::string> sanOptions = {"d_model", "layers", "heads", "rpr_clip", "activation", "pooling", "dropout_keep", "dropout_points",
                                                 "uniform_attention", "attention_window", "global_tokens"};
    const std::vector<std::string> rnnOptions = {"d_model", "layers", "ff_hidden", "dropout_keep", "dropout_points"};
    const std::vector<std::string> allPoints = {"input", "hidden", "output"};
    const std::vector<std::string> inputOnly = {"input"};
    // Abilities by family (ModelSpec.h says what each one means); the rest have none.
    const ModelAbilities attends = {true};
    const ModelAbilities recurrentDecoder = {false, true}; // seq2seq: a recurrent decoder without attention
    const ModelAbilities attendingRecurrentDecoder = {true, true};
    const ModelAbilities transformerDecoder = {true, false, true};
    const ModelAbilities transformerEncoderRecurrentDecoder = {true, true, true};
    const ModelAbilities readsAWindow = {false, false, false, 2}; // the fixed-window LM: n - 1 >= 1 tokens
    static const std::vector<ModelSpec> list = {
        {"ssan",
         "SSAN",
         "Simple self-attention network (thesis Fig. 4.1): FF for Q,K,V, attention, FF, mean, FF, softmax; ReLU, no "
         "residuals",
         san,
         TaskKind::Classification,
         {"mean", "max", "attention"},
         sanOptions,
         allPoints,
         allPoints,
         "",
         attends},
        {"essan",
         "ESSAN",
         "Extended SSAN (thesis 4.2): multi-head, Swish, masks after every FF, attention-based sequence "
         "representation; also the time-series regressor of chapter 6",
         san,
         TaskKind::Classification | TaskKind::Regression,
         {"attention", "mean", "max"},
         sanOptions,
         allPoints,
         allPoints,
         "",
         attends},
        {"transformer",
         "Transformer encoder",
         "Multi-head attention and position-wise FFN, each wrapped in residual + LayerNorm; mean pooling",
         san,
         TaskKind::Classification,
         {"mean", "max", "attention"},
         {"d_model", "layers", "heads", "ffn_hidden", "rpr_clip", "activation", "pooling", "dropout_keep",
          "dropout_points", "uniform_attention", "layer_norm", "residual", "attention_window", "global_tokens"},
         allPoints,
         allPoints,
         "",
         attends},
        {"rnn",
         "RNN",
         "Vanilla (tanh) RNN baseline: last state, 50-d ReLU layer, softmax; dropout on embeddings",
         onlyNone,
         TaskKind::Classification,
         {},
         rnnOptions,
         allPoints,
         inputOnly},
        {"lstm",
         "LSTM",
         "LSTM baseline (Barnes et al. 2017): last state, 50-d ReLU layer, softmax; dropout on embeddings",
         onlyNone,
         TaskKind::Classification,
         {},
         rnnOptions,
         allPoints,
         inputOnly},
        {"bilstm",
         "BiLSTM",
         "Bidirectional LSTM baseline (Barnes et al.): both final states, 50-d ReLU layer, softmax",
         onlyNone,
         TaskKind::Classification,
         {},
         rnnOptions,
         allPoints,
         inputOnly},
        {"gru",
         "GRU",
         "GRU baseline: last state, 50-d ReLU layer, softmax; dropout on embeddings",
         onlyNone,
         TaskKind::Classification,
         {},
         rnnOptions,
         allPoints,
         inputOnly},
        {"rnn-attention",
         "BiLSTM + attention",
         "Bidirectional LSTM whose states are pooled by additive attention (Bahdanau-style scores)",
         onlyNone,
         TaskKind::Classification,
         {},
         rnnOptions,
         allPoints,
         inputOnly,
         "",
         attends},
        {"cnn",
         "CNN",
         "The thesis' CNN (5.1.4, Barnes et al.): sentences padded to n tokens, filters of width 2, 3, 4, "
         "max pooling of 2, flattened, a ReLU layer, softmax; dropout on the embeddings and after the convolutions",
         onlyNone,
         TaskKind::Classification,
         {},
         {"d_model", "filters", "ff_hidden", "input_length", "dropout_keep", "dropout_points"},
         allPoints,
         {"input", "hidden"}},
        {"kim-cnn",
         "Kim's CNN",
         "Kim (2014): filters of width 3, 4, 5, max-over-time pooling, dropout, softmax with max-norm 3; "
         "rand, static (frozen vectors) or non-static (vectors fine-tuned) by the embeddings settings",
         onlyNone,
         TaskKind::Classification,
         {},
         {"d_model", "filters", "dropout_keep", "dropout_points"},
         allPoints,
         {"hidden"}},
        {"cnn-max-over-time",
         "CNN, max over time (earlier)",
         "The lab's cnn before it followed the thesis: filters 2, 3, 4, max-over-time pooling, ReLU layer, "
         "softmax; its stored runs and checkpoints load as this",
         onlyNone,
         TaskKind::Classification,
         {},
         {"d_model", "filters", "ff_hidden", "dropout_keep", "dropout_points"},
         allPoints,
         {"input", "hidden"}},
        {"minilm",
         "MiniLM (pretrained)",
         "all-MiniLM-L6-v2, a pretrained 6-layer BERT-style encoder (12 heads, hidden 384, learned positions), "
         "fine-tuned "
         "with a linear head on the mean of its last layer (its own sentence vector; pooling cls: BERT's pooled "
         "[CLS]); "
         "word pieces; needs the model installed (File > Datasets...)",
         {"learned"},
         TaskKind::Classification,
         {"mean", "cls"},
         {"frozen_encoder", "pooling", "dropout_points"},
         {"output"},
         {"output"},
         "all-minilm-l6-v2",
         attends},
        {"bow",
         "Bow",
         "Logistic regression on the bag of words (Barnes et al.); add L2 in training",
         onlyNone,
         TaskKind::Classification,
         {},
         {},
         {},
         {}},
        {"ave",
         "Ave",
         "Logistic regression on the average of the word embeddings (Barnes et al.)",
         onlyNone,
         TaskKind::Classification,
         {},
         {"d_model", "dropout_keep", "dropout_points"},
         inputOnly,
         {}},
        {"seq2seq",
         "RNN encoder-decoder",
         "Translation without attention (Cho et al. 2014): a GRU reads the source into one vector "
         "that the GRU decoder sees at every step; the baseline that forgets long sentences",
         onlyNone,
         TaskKind::Translation,
         {},
         {"d_model", "layers", "embedding_dim", "dropout_keep", "dropout_points"},
         {"input", "output"},
         {"input", "output"},
         "",
         recurrentDecoder},
        {"bahdanau",
         "Bahdanau attention",
         "Translation with additive attention (Bahdanau, Cho & Bengio 2015): bidirectional GRU "
         "encoder, the decoder's previous state scores every source word before each step",
         onlyNone,
         TaskKind::Translation,
         {},
         {"d_model", "layers", "embedding_dim", "attention_score", "dropout_keep", "dropout_points"},
         {"input", "output"},
         {"input", "output"},
         "",
         attendingRecurrentDecoder},
        {"luong",
         "Luong attention",
         "Translation with Luong, Pham & Manning's (2015) attention: dot, general or concat scores, "
         "global or local (local-m, local-p with window D), input feeding",
         onlyNone,
         TaskKind::Translation,
         {},
         {"d_model", "layers", "embedding_dim", "attention_score", "alignment", "local_window", "dropout_keep",
          "dropout_points"},
         {"input", "output"},
         {"input", "output"},
         "",
         attendingRecurrentDecoder},
        {"transformer-seq2seq",
         "Transformer encoder-decoder",
         "Translation with the Transformer (Vaswani et al. 2017): encoder "
         "self-attention, the decoder's causal self-attention and cross-attention, heads and layers, pre-LN",
         {"sinusoidal", "none", "learned", "rpr", "rope", "alibi"},
         TaskKind::Translation,
         {},
         {"d_model", "layers", "heads", "ffn_hidden", "rpr_clip", "activation", "layer_norm", "residual",
          "dropout_keep", "dropout_points"},
         allPoints,
         allPoints,
         "",
         transformerDecoder},
        // The two mixed families of Domhan (2018), "How much attention do you need?": each side from the other family.
        {"transformer-bahdanau",
         "Transformer enc. + Bahdanau dec.",
         "Translation with a self-attention encoder (Transformer layers, "
         "pre-LN) and Bahdanau's recurrent decoder with additive attention over its states (Domhan 2018)",
         {"sinusoidal", "none", "learned", "rpr", "rope", "alibi"},
         TaskKind::Translation,
         {},
         {"d_model", "layers", "heads", "ffn_hidden", "rpr_clip", "activation", "attention_score", "dropout_keep",
          "dropout_points"},
         allPoints,
         allPoints,
         "",
         transformerEncoderRecurrentDecoder},
        {"transformer-luong",
         "Transformer enc. + Luong dec.",
         "Translation with a self-attention encoder (Transformer layers, pre-LN) "
         "and Luong's recurrent decoder (dot, general or concat scores, global or local, input feeding) (Domhan 2018)",
         {"sinusoidal", "none", "learned", "rpr", "rope", "alibi"},
         TaskKind::Translation,
         {},
         {"d_model", "layers", "heads", "ffn_hidden", "rpr_clip", "activation", "attention_score", "alignment",
          "local_window", "dropout_keep", "dropout_points"},
         allPoints,
         allPoints,
         "",
         transformerEncoderRecurrentDecoder},
        {"birnn-transformer",
         "BiGRU enc. + Transformer dec.",
         "Translation with a bidirectional GRU encoder and a Transformer "
         "decoder (causal self-attention, cross-attention over the GRU's states, pre-LN) (Domhan 2018)",
         {"sinusoidal", "none", "learned", "rpr", "rope", "alibi"},
         TaskKind::Translation,
         {},
         {"d_model", "layers", "heads", "ffn_hidden", "rpr_clip", "activation", "dropout_keep", "dropout_points"},
         allPoints,
         allPoints,
         "",
         transformerDecoder},
        // Language models (next-token prediction): the count baseline, the fixed-window network, the char-RNN, the GPT.
        {"ngram",
         "n-gram (counts)",
         "Count-based n-gram model: each token from the n-1 before it, interpolated Kneser-Ney or add-k "
         "smoothing; estimated in one pass, nothing to train (the baseline every language-model lesson starts from)",
         onlyNone,
         TaskKind::LanguageModel,
         {},
         {"order", "smoothing", "add_k", "context"},
         {},
         {}},
        {"ffn-lm",
         "Fixed-window neural LM",
         "Bengio et al. 2003's neural language model: the embeddings of the n-1 tokens before each one "
         "concatenated, a tanh hidden layer, a softmax; its first layer grows with the window (Table 2.1)",
         onlyNone,
         TaskKind::LanguageModel,
         {},
         {"d_model", "order", "ffn_hidden", "context", "dropout_keep", "dropout_points"},
         {"input", "hidden"},
         {},
         "",
         readsAWindow},
        {"char-rnn",
         "char-RNN",
         "Karpathy's char-rnn: stacked LSTM (or GRU, plain tanh RNN, identity-initialised ReLU RNN) over "
         "token embeddings, a softmax over the next token at every step",
         onlyNone,
         TaskKind::LanguageModel,
         {},
         {"d_model", "layers", "cell", "context", "dropout_keep", "dropout_points"},
         {"input", "hidden"},
         {}},
        {"gpt",
         "GPT (decoder-only)",
         "A decoder-only Transformer as nanoGPT builds it: causal multi-head self-attention and a GELU "
         "MLP per block, pre-LN, weight tying; attention-only for induction heads",
         {"learned", "sinusoidal", "none", "rope", "alibi", "rpr"},
         TaskKind::LanguageModel,
         {},
         {"d_model", "layers", "heads", "ffn_hidden", "rpr_clip", "context", "attention_only", "scaled", "layer_norm",
          "residual", "dropout_keep", "dropout_points"},
         {"input", "hidden"},
         {},
         "",
         attends},
        {"narx",
         "NARX RNN",
         "Time series: one LSTM over driving series and target history, last state -> prediction",
         onlyNone,
         TaskKind::Regression,
         {},
         {"d_model", "layers"},
         {},
         {}},
        {"encdec",
         "Encoder-decoder RNN",
         "Time series: LSTM encoder over the driving series, LSTM decoder over the target history (Cho et al.)",
         onlyNone,
         TaskKind::Regression,
         {},
         {"d_model", "layers"},
         {},
         {}},
        {"attn-rnn",
         "Attention RNN",
         "Time series: encoder-decoder whose prediction attends over the encoder states (Bahdanau et al.)",
         onlyNone,
         TaskKind::Regression,
         {},
         {"d_model", "layers"},
         {},
         {},
         "",
         attends},
        {"darnn",
         "DA-RNN",
         "Time series: dual-stage attention, over driving series per step and over encoder steps (Qin et al. 2017)",
         onlyNone,
         TaskKind::Regression,
         {},
         {"d_model"},
         {},
         {},
         "",
         attends},
        {"persistence",
         "Persistence",
         "Time-series baseline: the next value is the last one seen (nothing to train)",
         onlyNone,
         TaskKind::Regression,
         {},
         {},
         {},
         {}},
        {"linear-ar",
         "Linear AR",
         "Time-series baseline: linear autoregression on the window's past target values, fitted once by least squares",
         onlyNone,
         TaskKind::Regression,
         {},
         {},
         {},
         {}},
        {"arima",
         "ARIMA",
         "Time-series baseline: ARIMA(p,d,q) on the window's past target values, Hannan-Rissanen estimates, orders "
         "chosen on dev",
         onlyNone,
         TaskKind::Regression,
         {},
         {},
         {},
         {}},
    };
    return list;
}

const std::vector<RegistryEntry>& Registry::positions()
{
    static const std::vector<RegistryEntry> list = {
        {"none", "None", "No position information: self-attention then sees a bag of words"},
        {"sinusoidal", "Sinusoidal (PE)", "Fixed sine/cosine encodings added to the embeddings (Vaswani et al. 2017)"},
        {"learned", "Learned", "A trained vector per absolute position added to the embeddings (Gehring et al. 2017)"},
        {"rpr", "Relative (RPR)",
         "Relative position representations (Shaw et al. 2018) on keys and values, clipped at k"},
        {"rope", "Rotary (RoPE)",
         "Queries and keys rotated by position, so scores depend on the offset only (Su et al. 2021)"},
        {"alibi", "ALiBi", "A per-head penalty proportional to distance added to the scores (Press et al. 2022)"},
    };
    return list;
}

namespace {
template<typename Entry> const Entry* findIn(const std::vector<Entry>& list, const std::string& id)
{
    for (const auto& entry : list)
        if (entry.id == id)
            return &entry;
    return nullptr;
}
template<typename Entry> std::string idsOf(const std::vector<Entry>& list)
{
    std::string ids;
    for (const auto& entry : list)
        ids += (ids.empty() ? "" : ", ") + entry.id;
    return ids;
}
template<typename Entry> std::string nameIn(const std::vector<Entry>& list, const std::string& id)
{
    const Entry* entry = findIn(list, id);
    return entry ? entry->name : id;
}
bool listed(const std::vector<std::string>& items, const std::string& x)
{
    return std::find(items.begin(), items.end(), x) != items.end();
}
} // namespace

bool ModelSpec::hasOption(const std::string& option) const
{
    return listed(options, option);
}

bool ModelSpec::takesPosition(const std::string& position) const
{
    return listed(positions, position);
}

const RegistryEntry* Registry::find(const std::vector<RegistryEntry>& list, const std::string& id)
{
    return findIn(list, id);
}
const ModelSpec* Registry::find(const std::vector<ModelSpec>& list, const std::string& id)
{
    return findIn(list, id);
}
std::string Registry::idList(const std::vector<RegistryEntry>& list)
{
    return idsOf(list);
}
std::string Registry::idList(const std::vector<ModelSpec>& list)
{
    return idsOf(list);
}
std::string Registry::nameOf(const std::vector<RegistryEntry>& list, const std::string& id)
{
    return nameIn(list, id);
}
std::string Registry::nameOf(const std::vector<ModelSpec>& list, const std::string& id)
{
    return nameIn(list, id);
}

TaskKind Registry::taskOf(const std::string& datasetId)
{
    const RegistryEntry* entry = dataset(datasetId);
    return entry ? entry->task : TaskKind::Classification;
}

std::string Registry::modelsFor(TaskKind task)
{
    std::string ids;
    for (const auto& m : models())
        if (m.servesTask(task))
            ids += (ids.empty() ? "" : ", ") + m.id;
    return ids;
}

std::string Registry::modelsWithOption(const std::string& option)
{
    std::string ids;
    for (const auto& m : models())
        if (m.hasOption(option))
            ids += (ids.empty() ? "" : ", ") + m.id;
    return ids;
}

std::string Registry::taskProblem(const std::string& modelId, const std::string& datasetId)
{
    const ModelSpec* spec = model(modelId);
    const RegistryEntry* data = dataset(datasetId);
    if (!spec || !data || spec->servesTask(data->task))
        return {}; // an unknown id is the model's or the loader's to name
    return "model: '" + modelId + "' is a " + spec->tasks.nouns() + " model; dataset '" + datasetId + "' is a " +
        taskKindNoun(data->task) + " dataset (models for it: " + modelsFor(data->task) + ")";
}

bool Registry::takesPosition(const std::string& modelId)
{
    const ModelSpec* spec = model(modelId);
    return !spec || !(spec->positions.size() == 1 && spec->positions.front() == "none");
}

std::string Registry::defaultPosition(const std::string& modelId)
{
    const ModelSpec* spec = model(modelId);
    if (spec && !spec->positions.empty() &&
        (spec->servesTask(TaskKind::Translation) || spec->servesTask(TaskKind::LanguageModel) ||
         !spec->takesPosition("rpr")))
        return spec->positions.front(); // a pretrained model's own technique (minilm: learned)
    return takesPosition(modelId) ? "rpr" : "none";
}

std::string Registry::defaultModel(const std::string& datasetId)
{
    switch (taskOf(datasetId)) {
    case TaskKind::Translation:
        return "bahdanau";
    case TaskKind::LanguageModel:
        return "gpt";
    case TaskKind::Regression:
        return "essan";
    case TaskKind::Classification:
        break;
    }
    return "ssan";
}

std::string Registry::modelLabel(const std::string& model, const std::string& position)
{
    const std::string name = nameOf(models(), model);
    if (!takesPosition(model))
        return name;
    // "SSAN + None" reads as a technique called None; say what it is.
    return position == "none" ? name + " (no position)" : name + " + " + nameOf(positions(), position);
}

bool Registry::hasAttention(const std::string& modelId)
{
    const ModelSpec* spec = model(modelId);
    return spec && spec->can.attention;
}

} // namespace attnlab
