#pragma once
#include "core/config/TaskKind.h"

#include <algorithm>
#include <string>
#include <vector>

namespace attnlab {

// Architecture settings. Plain data; validate() says which setting cannot work and why.
// Empty strings and zeros mean "the model's own default" (see Registry::models()).
struct ModelConfig {
    std::string model = "ssan";     // registry id (Registry::models())
    std::string position = "rpr";   // registry id (Registry::positions())
    int dModel = 64;                // hidden size
    int embeddingDim = 0;           // word vectors' size; 0 = dModel (a pre-trained file sets it)
    int layers = 1;                 // self-attention layers, or stacked recurrent layers
    int heads = 1;                  // attention heads (ESSAN, Transformer); must divide d_model
    int rprClip = 10;               // k of Shaw et al.: relative distances clipped to [-k, k]
    int ffHidden = 50;              // recurrent/CNN baselines: ReLU layer before softmax (Barnes et al.)
    int ffnHidden = 0; // Transformer FFN size, the fixed-window LM's hidden layer; 0 = 4 d_model
    int filters = 100;              // CNN: feature maps per filter size (2, 3, 4)
    // The thesis' CNN: every sentence padded (or cut) to this many tokens, which sizes its flattened features;
    // 0 = the dataset's longest sentence over every split, as Barnes et al. (max_length where no dataset is read).
    int inputLength = 0;
    // Longest input in tokens: longer examples are truncated at batching (the count is reported), and the
    // learned position encodings hold this many vectors. 512, as BERT-style encoders: far above any
    // sentence of the thesis' datasets (SST's longest is 56), and a 512 x 512 attention map per head stays small.
    int maxLength = 512;
    std::string activation;         // relu | swish | gelu; "" = model default (SSAN relu, ESSAN swish)
    std::string pooling;            // mean | max | attention; "" = model default (ESSAN attention = AttnSeqRep)
    double dropoutKeep = 0.8;       // keep probability, as the thesis states it
    // Where dropout is applied: a comma list of input (embeddings), hidden (each layer's output), output
    // (the sentence vector before the softmax layer); "" = the model's own points (ModelSpec::dropoutDefault),
    // "none" = no dropout anywhere.
    std::string dropoutPoints;
    double dropoutInputKeep = 0.0;  // per-point keep probabilities; 0 = dropoutKeep
    double dropoutHiddenKeep = 0.0;
    double dropoutOutputKeep = 0.0;
    // the baseline: every attention weight frozen to 1/n over the real tokens (the query and key
    // projections, and RPR's key table, are then not built; RPR's value table stays). If the model scores the
    // same, its task did not need attention. Self-attention classifiers only; not with rope or alibi, which
    // act on the scores that uniform attention does not have.
    bool uniformAttention = false;
    // A pretrained model (ModelSpec::pretrained): keep its encoder as loaded and train the classification
    // head only (fast; the encoder's features as they came). False fine-tunes everything.
    bool frozenEncoder = false;
    // Translation: how a recurrent decoder attends (RecurrentAttention). "" = the model's own score
    // (bahdanau: additive, luong: general); alignment global | local-m | local-p with window D (Luong 3.2).
    std::string attentionScore;
    std::string alignment = "global";
    int localWindow = 2;
    // Language models: the context (tokens a model reads at once, the training window; a GPT's learned positions);
    // the order n of the n-gram and the fixed-window LM (each token read from the n - 1 before it); the n-gram's
    // smoothing (kneser-ney: interpolated, modified by Chen & Goodman's single discount per order | add-k with
    // addK); a char-RNN's cell (lstm | gru | rnn: tanh | irnn: ReLU
    // with the identity as its first recurrent matrix, Le et al. 2015); a GPT without its MLPs (attention only, for
    // induction heads); scaled false leaves out attention's division by sqrt(d_k) (the lesson that shows why).
    int context = 64;
    int order = 2;
    std::string smoothing = "kneser-ney";
    double addK = 1.0;
    std::string cell = "lstm";
    bool attentionOnly = false;
    bool scaled = true;
    // Residual connections and LayerNorm around each sub-layer (attention, FFN) of the Transformer encoder and the GPT:
    // layerNorm "" = the model's own (transformer: post, after the addition, as Vaswani et al. 2017; gpt: pre, before
    // the sub-layer, as GPT-2), "pre" | "post" | "none"; residual false leaves out the skip connection x + ...
    std::string layerNorm;
    bool residual = true;
    // Sliding-window self-attention (Longformer, BigBird): attentionWindow w > 0 lets each token attend to the w tokens
    // either side of it only, plus the first globalTokens tokens, which attend to and are attended by all. Computed
    // banded, so time and memory grow linearly with the length; 0 = full attention. SSAN, ESSAN, Transformer classifiers.
    int attentionWindow = 0;
    int globalTokens = 0;
    std::string layerNormOr(const std::string& fallback) const { return layerNorm.empty() ? fallback : layerNorm; }
    int vocabularySize = 0;         // set from the dataset (classification; translation: the source side)
    int targetVocabularySize = 0;   // set from the dataset (translation): > 0 means an encoder-decoder
    int numClasses = 0;             // set from the dataset (classification)
    int drivers = 0;                // set from the dataset (regression): driving series F; > 0 means regression
    int window = 0;                 // set from the dataset (regression): time steps T
    int horizon = 1;                // set from the dataset (regression): steps ahead predicted at once, H

    // Empty when the configuration can be built, else a message naming the setting.
    std::string validate() const;
    bool isRegression() const { return drivers > 0; }
    bool isTranslation() const { return targetVocabularySize > 0; }
    bool isLanguageModel() const { return dataTask() == TaskKind::LanguageModel; }
    // The task of the data these sizes came from: a time series (drivers), sentence pairs (a target
    // vocabulary), labelled sentences (classes); with none of them, text to model if the model is a
    // language model. A language model given classes is so refused on a classification set.
    TaskKind dataTask() const;
    int inputDim() const { return embeddingDim > 0 ? embeddingDim : dModel; }
    int paddedLength() const { return inputLength > 0 ? inputLength : maxLength; }
    // input_length 0 becomes the data's longest example (at most max_length, at least the 5 a CNN needs).
    void resolveInputLength(int longestExample)
    {
        if (inputLength == 0)
            inputLength = std::max(5, std::min(longestExample, maxLength));
    }
    std::string activationOr(const std::string& fallback) const { return activation.empty() ? fallback : activation; }
    std::string poolingOr(const std::string& fallback) const { return pooling.empty() ? fallback : pooling; }
    // Keep probability at a dropout point (input | hidden | output); 1 where the point is switched off.
    double keepAt(const std::string& point) const;
    // The points in effect: dropoutPoints, or the model's defaults when that is empty.
    std::vector<std::string> activeDropoutPoints() const;
};

} // namespace attnlab
