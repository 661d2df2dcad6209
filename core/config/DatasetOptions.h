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
    double trainFraction = 0.7, devFraction = 0.15; // csv-series and synthetic-lag; sml2010 uses 3200/400/537
    double scaleTop = 0.75;              // min-max scaling to [0, scaleTop] from train statistics

    // The user's own files (csv-text, csv-series).
    std::string file;                 // one CSV/TSV split by fractions, or...
    std::string trainFile, devFile, testFile; // ...one file per split
    std::string textColumn;           // name or 1-based number; "" = the first text-like column
    std::string labelColumn;          // name or 1-based number; "" = the last column
    std::string targetColumn;         // csv-series: name or 1-based number (required)
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
