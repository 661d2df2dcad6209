#pragma once
#include "core/analysis/TableDocument.h"
#include "core/analysis/ThesisReference.h"
#include "core/results/RunRecord.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// One cell: the metric over the completed runs of that row and column, mean ± sample std (n - 1) and n.
struct MatrixCell {
    int n = 0;
    double mean = 0.0;
    double std = 0.0;
    double top = 0.0;                  // the best single run: the highest accuracy, the lowest error
    bool best = false;                 // the best mean of its column (ties: all of them)
    bool bestTop = false;              // the best top of its column
    std::optional<ThesisValue> thesis; // the thesis' number for the same configuration, where it has one
};

// The shape of thesis Tables 5.3/5.6/6.4: rows = one key (models), columns = another (datasets), each cell
// the metric's mean ± std (n) over every completed run there (all of them: no sampling), the best of each
// column marked, and a macro-average column (the mean of a row's cell means, as the thesis' "Macro-Avg",
// only for rows with every column filled).
class ResultsMatrix {
public:
    struct Options {
        std::string rows = "model";       // RunField keys; comma-separated for several ("model,position")
        std::string columns = "dataset";
        std::string metric = "test";      // RunField::metricNames()
        bool average = true;              // add the macro-average column (when there are 2+ columns)
        // Add before each column its best single run ("Top", as the thesis' Table 5.6 prints beside "Avg"); a
        // top of n runs is an optimistic figure that grows with n, which is why the n stays in every cell.
        bool top = false;
    };

    static ResultsMatrix build(const std::vector<RunRecord>& runs, const Options& options);

    const Options& options() const { return options_; }
    const std::vector<std::string>& rowLabels() const { return rows_; }
    const std::vector<std::string>& columnLabels() const { return columns_; }
    const MatrixCell& cell(std::size_t row, std::size_t column) const { return cells_[row][column]; }
    bool hasAverage() const { return hasAverage_; }
    const MatrixCell& average(std::size_t row) const { return averages_[row]; }
    int runsUsed() const { return runsUsed_; }
    bool regression() const { return regression_; }
    bool higherIsBetter() const;
    bool percent() const; // values shown x100

    // "48.1 ± 0.4 (5)": mean ± std (n), with the given decimals (in percent for accuracy-like metrics).
    std::string format(const MatrixCell& cell, int decimals) const;
    std::string formatTop(const MatrixCell& cell, int decimals) const; // "48.9", the best run; "" for an empty cell
    // The table to export; withThesis adds, under each row that has any, a "(thesis)" row of the thesis'
    // numbers for the same configuration.
    TableDocument table(int decimals, bool withThesis) const;
    std::string toJson() const; // every cell's numbers, for scripts

private:
    Options options_;
    std::vector<std::string> rows_, columns_;
    std::vector<std::vector<MatrixCell>> cells_;
    std::vector<MatrixCell> averages_;
    std::vector<std::string> thesisLabels_; // per row: the thesis' row name, "" where none
    bool hasAverage_ = false;
    bool regression_ = false;
    int runsUsed_ = 0;
};

} // namespace attnlab
