#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Everything a dataset load can be told besides its id. Defaults follow the thesis; the CLI's flags and
// the GUI's settings fill these in. Options that do not apply to a dataset are ignored by it.
struct DatasetOptions {
    std::uint64_t seed = 7;         // synthetic generators and split shuffles
    std::string dataDir;            // where real data lives; "" = DataLocator's search (env, user folder)
    bool lowercase = false;         // lowercase every token

    // SST (thesis 5.2.1): the training set becomes every labelled phrase, re-balanced.
    bool phrases = false;
    std::vector<int> phraseMultipliers; // copies of each sub-phrase per fine class 0..4; empty = thesis: 6,4,1,4,6 (fine), 3,2,1,2,3 (binary)
    int extraSentenceCopies = -1;       // extra copies of whole sentences; -1 = what reproduces the thesis' totals: 5 (fine), 1 (binary)
    bool rebalance = true;              // false = each labelled phrase once (318,582 for SST train)

    // synthetic-sentiment: length and distance between the tokens that decide the label.
    int syntheticTrain = 6000, syntheticDev = 600, syntheticTest = 600;
    int minFillers = 0, maxFillers = 2; // filler words per clause
    int distance = 0;                   // >0: exactly this many filler words between the deciding clauses
    bool orderDependent = false;

    // synthetic-lag: y_t = 0.6 y_{t-1} + 0.8 x_k(t - lag) + noise with k = leadDriver.
    int seriesLength = 3000;
    int seriesDrivers = 4;
    int lag = 3;
    int leadDriver = 0;
    double noise = 0.05;

    // Time series (sml2010, csv-series, synthetic-lag).
    int window = 10;                     // T
    int horizon = 1;                     // H: each window predicts y_T .. y_{T+H-1}
    double trainFraction = 0.7, devFraction = 0.15; // csv-text, csv-series, csv-pairs and synthetic-lag; sml2010 uses 3200/400/537
    double scaleTop = 0.75;              // min-max scaling to [0, scaleTop] from train statistics

    // Translation: multi30k, synthetic-reverse/-copy/-sort/-dates, csv-pairs.
    std::string sourceLanguage = "de"; // multi30k: en | de | fr, any direction...
    std::string targetLanguage = "en"; // ...but not the source's
    // multi30k, csv-pairs: tokens per side; a TRAIN pair with a side longer than this is dropped, counted in
    // the notes (never silently); dev and test are never cut (their pairs over it are counted too). 0 = no cap.
    int maxPairLength = 0;
    // multi30k, csv-pairs: how lines become tokens: words (English, German, French; Tokenizer::Style::Words)
    // | whitespace (already tokenised) | ptb | tweet. Lowercasing is `lowercase` above.
    std::string translationTokenizer = "words";
    // multi30k, csv-pairs: "" = the tokenizer's words; "bpe" | "unigram" = SentencePiece pieces learnt on the
    // training split (one model a side, about subwordVocabulary pieces; SubwordModel), after the length cap.
    std::string subwords;
    int subwordVocabulary = 8000;
    // The synthetic tasks (SyntheticTranslation): pairs per split, and tokens per source sentence of the
    // sequence tasks (reverse, copy, sort) in train and dev; reverse's test sentences are longer, from
    // max + 1 to 2 x max tokens, to show what happens past the trained length.
    int translationTrain = 10000, translationDev = 500, translationTest = 500;
    int sequenceMinLength = 3, sequenceMaxLength = 10;

    // Language models: the user's text (text-file, in `file`) or multi30k-lm as characters | words | pieces (SentencePiece,
    // `subwords` kind, bpe when empty, about `subwordVocabulary` of them); the induction-heads task
    // (synthetic-repeat): a random sequence of repeatLength symbols out of repeatVocabulary, then the same again.
    std::string lmUnit = "characters";
    int repeatLength = 16, repeatVocabulary = 50;
    int repeatTrain = 20000, repeatDev = 200, repeatTest = 200;

    // The user's own files (csv-text, csv-series, csv-pairs, text-file).
    std::string file;                 // one CSV/TSV split by fractions, or...
    std::string trainFile, devFile, testFile; // ...one file per split
    std::string textColumn;           // name or 1-based number; "" = the first text-like column
    std::string labelColumn;          // name or 1-based number; "" = the last column
    // csv-series: name or 1-based number (required); csv-pairs: the target sentences' column ("" = the next
    // text column after the source's)
    std::string targetColumn;
    std::string sourceColumn;         // csv-pairs: the source sentences' column, name or 1-based number; "" = the first text column
    // csv-pairs from two files of parallel lines (one sentence a line, line i of each a pair) instead of a
    // CSV/TSV: split by trainFraction/devFraction, or, with the dev and test pairs given, these are train's.
    std::string sourceFile, targetFile;
    std::string devSourceFile, devTargetFile, testSourceFile, testTargetFile;
    std::vector<std::string> driverColumns; // csv-series: empty = every other numeric column
    char delimiter = 0;               // 0 = detect (comma, tab, semicolon, bar)
    int header = -1;                  // -1 = detect, 0 = no header row, 1 = header row
    // auto | on | off: do double quotes wrap fields? auto = on, except in tab-separated files (CsvTable).
    std::string quoting = "auto";
    // csv-series and sml2010: what becomes of a missing cell (empty, NA, N/A, NaN, ?, ...; MissingValues):
    // error | drop (the row) | ffill (the last value before it) | interpolate (linear within its column).
    // error by default: a filled cell in dev or test becomes a target the reported RMSE is measured
    // against, and the app reports measured numbers, so filling is the user's explicit choice.
    std::string missing = "error";
    // csv-series: a column of text (categories, dates) among the drivers: skip it with a note, or onehot
    // (one 0/1 driver per distinct value, for columns of at most CsvSeriesReader::kMaxCategories values).
    std::string categorical = "skip";
    std::string tokenizer = "ptb";    // csv-text: whitespace | ptb | tweet
};

} // namespace attnlab
