#pragma once
#include "core/config/TaskKind.h"
#include "core/data/LoadedDataset.h"
#include "core/data/SeriesDataset.h"
#include "core/data/TextDataset.h"
#include "core/data/TranslationDataset.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

class WordEmbeddings;

// What the app measures about a dataset (the columns of thesis Table 5.2): examples per split, class
// balance, average and maximum length, vocabulary size, and embedding coverage when vectors are given;
// for time series the window counts and the target's range; for translation the pairs, both sides'
// lengths and vocabularies; for a language model each split's tokens and the unigram baseline. Torch-free, so the GUI can compute it on
// a background thread.
struct DatasetStatistics {
    struct Split {
        std::string name;
        std::int64_t examples = 0;             // a language model: the split's tokens
        std::vector<std::int64_t> classCounts; // classification
        double averageLength = 0.0;            // tokens (classification; translation: the source side) or window steps (regression)
        std::int64_t maxLength = 0;
        double targetAverageLength = 0.0;      // translation: the target side's tokens
        std::int64_t targetMaxLength = 0;
        double targetMin = 0.0, targetMax = 0.0, targetMean = 0.0; // regression, original units
    };
    struct Coverage {
        std::string file;
        std::int64_t types = 0, typesCovered = 0, tokens = 0, tokensCovered = 0;
    };

    std::string id, name;
    TaskKind task = TaskKind::Classification;
    std::vector<std::string> classes;
    std::vector<Split> splits;                 // train, dev, test
    std::optional<Split> trainBalanced;        // SST phrase level: the training set after re-balancing
    std::int64_t vocabularySize = 0;           // distinct tokens over all splits
    std::int64_t trainVocabularySize = 0;      // distinct tokens of train (what a model's table holds)
    // Translation: the vocabularies above are the source side's; these the target side's.
    std::string sourceLanguage, targetLanguage;
    std::int64_t targetVocabularySize = 0, trainTargetVocabularySize = 0;
    bool goldAlignment = false;                // every pair carries its gold alignment (the synthetic tasks)
    std::optional<Coverage> coverage;
    int window = 0;                            // regression
    std::vector<std::string> drivers;
    std::string target;
    std::string missingPolicy;                 // regression: DatasetOptions::missing, and what it met
    std::int64_t missingCells = 0, missingRows = 0;
    std::vector<std::string> notes;            // the dataset's notes (TextDataset::notes, SeriesDataset::notes)
    // Language model: what a token is (characters, words, pieces, symbols), the repeat task's block, and the dev loss
    // of a model that ignores the context: train's token counts, add-one smoothed over the vocabulary, in nats a token
    // (the count baseline a network must go below).
    std::string unit;
    int block = 0;
    double unigramDevLoss = 0.0;

    static DatasetStatistics of(const TextDataset& dataset);
    static DatasetStatistics of(const SeriesDataset& dataset);
    static DatasetStatistics of(const TranslationDataset& dataset); // task "translation"; splits count pairs
    static DatasetStatistics of(const LanguageModelDataset& dataset); // task "language_model"; splits count tokens
    static DatasetStatistics of(const LoadedDataset& dataset);
    void addCoverage(const TextDataset& dataset, const WordEmbeddings& embeddings, const std::string& file);
    static Split splitOf(const std::string& name, const std::vector<TextExample>& examples, int classes);

    std::string toJson() const;
    std::string toText() const; // a few readable lines (the CLI without --json, the GUI's tooltip); notes not included
};

} // namespace attnlab
