#pragma once
#include "core/config/DatasetOptions.h"
#include "core/config/ModelConfig.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Everything that defines a training run; stored as JSON with the run.
struct TrainConfig {
    std::string dataset = "synthetic-sentiment";
    ModelConfig model;
    std::string optimizer = "adam";  // adam | adadelta | sgd
    double learningRate = 1e-3;      // defaultLearningRate(optimizer) unless a preset or the user says otherwise
    double momentum = 0.9;           // SGD only
    double l2 = 0.0;                 // thesis eq. 4.1: loss + l2 * (1/n) sum of squared weights
    double weightDecay = 0.0;        // decoupled weight decay per step (adam + this = AdamW)
    std::string weightDecayOn = "all"; // all | matrices: only the weights of 2 or more dimensions (nanoGPT, GPT-2: no biases, no LayerNorm)
    double adamBeta2 = 0.999;        // Adam's second-moment decay (nanoGPT: 0.99)
    double minLearningRate = 0.0;    // cosine: where the decay ends (nanoGPT: learning_rate / 10)
    std::string lrSchedule = "constant"; // constant | step | cosine (LearningRateSchedule)
    int lrDecayEvery = 25000;        // step schedule: steps between decays (thesis 6.3)
    double lrDecayGamma = 0.1;       // step schedule: factor per decay
    int warmupSteps = 0;             // linear warm-up (any schedule)
    double clipNorm = 0.0;           // clip gradients to this global L2 norm; 0 = off
    // Record the gradient's norm at every log step (before clipping; in total and per layer, GradientNorms) and, for a
    // text classifier, at every evaluation the norm of the loss's gradient at each input position by its distance
    // from the last word (InputGradientProfile). In the JSON only when on.
    bool gradientNorms = false;
    int epochs = 0;                  // > 0: the budget is this many passes over train (replaces steps)
    int patience = 0;                // early stopping: dev evaluations without improvement; 0 = off
    bool amp = false;                // CUDA only: bf16 autocast for forward passes
    // a step a CUDA graph can capture. Adam with its step count and rate on the device (CapturableAdam),
    // classification batches padded to a multiple of kLengthBucket tokens. Off: today's step, exactly.
    bool capturableStep = false;
    static constexpr int kLengthBucket = 8;
    bool tf32 = false;               // CUDA only: float32 matrix products and convolutions in TF32 (Ampere and later)
    bool deterministic = false;      // LibTorch's deterministic kernels only (CUDA: cuBLAS workspace fixed, no atomics); on the CPU the thread count stays fixed
    int batchSize = 32;
    std::string dataDir;             // where real data is looked for first ("" = ATTNLAB_DATA_DIR, user data folder)
    std::string sampling = "random"; // random: each batch drawn at random (thesis) | epochs: shuffled epochs
    int steps = 600;
    int evalEvery = 50;              // steps between dev evaluations (and attention snapshots)
    int logEvery = 10;               // steps between train-metric points on the curves
    std::uint64_t seed = 1;
    std::string device = "auto";     // auto | cpu | cuda | cuda:N (DeviceSetting)
    int threads = 0;                 // intra-op threads; 0 = all cores
    bool phrases = false;            // SST: train on every labelled phrase (thesis 5.2.1)
    // How messy files are read (DatasetOptions::missing, ::quoting, ::categorical). In the JSON only when
    // not the default, so the configuration (and group key) of every run that never met them is unchanged.
    std::string missingValues = "error"; // error | drop | ffill | interpolate
    std::string quoting = "auto";        // auto | on | off
    std::string categorical = "skip";    // skip | onehot
    // The rest of how the dataset is made or read (DatasetOptions; datasetOptions() maps them). In the JSON
    // only when not the default, like the three above, so earlier runs' configs and group keys stay as they were.
    bool lowercase = false;              // lowercase every token
    std::string tokenizer;               // csv-text: whitespace | ptb | tweet; "" = ptb
    bool orderDependent = false;         // synthetic-sentiment: the label depends on the order of its clauses
    int distance = 0;                    // synthetic-sentiment: > 0 = this many filler words between deciding clauses
    int window = 10;                     // time series: time steps T per example
    int horizon = 1;                     // time series: steps ahead each window predicts at once (y_T .. y_{T+H-1})
    int lag = 3;                         // synthetic-lag: the known lag of the driving series
    std::string file;                    // csv-text / csv-series: one file split by fractions, or...
    std::string trainFile, devFile, testFile; // ...one file per split
    std::string textColumn, labelColumn, targetColumn; // name or 1-based number; "" = the reader's choice
    std::vector<std::string> driverColumns; // csv-series: empty = every other numeric column
    std::string delimiter;               // "" = detect, "tab", or one character
    int header = -1;                     // -1 = detect, 0 = none, 1 = a header row
    double trainFraction = 0.7, devFraction = 0.15; // one file (csv-*, synthetic-lag): the split's shares
    std::string embeddingsPath;      // pre-trained word vectors (GloVe, word2vec, fastText); "" = random
    bool embeddingsFrozen = false;   // keep the pre-trained vectors fixed, else fine-tune them
    double oovRange = 0.25;          // out-of-vocabulary vectors uniform in [-a, a] (thesis: 0.25; 0.05 with GloVe)
    // Where the best-dev weights of a completed run are saved (LibTorch archive, one file per run, named in
    // the run store with its sha256); "" = not saved.
    std::string checkpointDir;
    // Sentences whose attention is recorded at every evaluation besides the dataset's probe sentence; empty =
    // a few dev examples, one per class (ClassificationTask). In the JSON only when given.
    std::vector<std::string> probes;
    // Translation. In the JSON only when not the default, like the dataset keys.
    double teacherForcing = 1.0;     // recurrent decoders: share of steps fed the gold previous token (1 = always)
    double labelSmoothing = 0.0;     // epsilon of label-smoothed cross-entropy (Szegedy et al. 2016; 0.1 in Vaswani et al.)
    int beamSize = 1;                // how evaluation and `translate` decode: 1 = greedy, K = beam search
    double lengthPenalty = 0.0;      // GNMT's alpha: beam scores are log P / ((5 + |Y|) / 6)^alpha
    std::string sourceLanguage = "de", targetLanguage = "en"; // multi30k: en | de | fr, any direction
    // csv-pairs from files of parallel lines (DatasetOptions::sourceFile ...), and the synthetic translation tasks' sizes.
    std::string sourceFile, targetFile, devSourceFile, devTargetFile, testSourceFile, testTargetFile;
    int translationTrain = 10000, translationDev = 500, translationTest = 500;
    int sequenceMinLength = 3, sequenceMaxLength = 10;
    int maxPairLength = 0;           // translation: training pairs with a side longer than this are left out (counted); 0 = none
    // translation from text (multi30k, csv-pairs): "" = words (the tokenizer), or SentencePiece subwords learnt
    // on the training split, one model a side: "bpe" | "unigram" with about subwordVocabulary pieces.
    std::string subwords;
    int subwordVocabulary = 8000;
    std::string sourceColumn;        // csv-pairs: name or 1-based number (its target side is target_column); "" = the first text column
    // Language models (DatasetOptions' keys of the same names). In the JSON only when not the default.
    std::string lmUnit = "characters"; // text-file, multi30k-lm: characters | words | pieces (SentencePiece: subwords, subwordVocabulary)
    int repeatLength = 16, repeatVocabulary = 50; // synthetic-repeat
    int repeatTrain = 20000, repeatDev = 200, repeatTest = 200;
    int sampleTokens = 200;            // each evaluation writes this many tokens from the dataset's prompt (seeded); 0 = none

    // The learning rate an optimiser starts from when nothing else is said: Adam 1e-3, ADADELTA 1.0
    // (rho 0.95, thesis 5.1.5), SGD 0.1; Adam's for an unknown name (validate() reports the name).
    static double defaultLearningRate(const std::string& optimizer);

    // Keys whose value is the default and that older runs never had (the dataset keys, probes) are left
    // out, unless everyKey: then the JSON lists every key fromJson reads (unknownKeys, sweep specs).
    std::string toJson(bool everyKey = false) const;
    // How the run's dataset is read: dataDir, phrases, the messy-file policies and the keys above.
    DatasetOptions datasetOptions() const;
    // Throws std::invalid_argument naming the key on bad JSON. A key left out takes its default, except three that
    // follow another: model (the dataset's task: Registry::defaultModel), position (the model:
    // Registry::defaultPosition) and learning_rate (the optimiser: defaultLearningRate).
    static TrainConfig fromJson(const std::string& json);
    std::string validate() const;
    // Keys fromJson does not know (typos in a config file); empty when all are known.
    static std::vector<std::string> unknownKeys(const std::string& json);
};

} // namespace attnlab
