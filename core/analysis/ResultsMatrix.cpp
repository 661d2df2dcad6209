#include "core/analysis/ResultsMatrix.h"

#include "core/analysis/RunField.h"
#include "core/results/DecimalText.h"
#include "core/results/RepeatStatistics.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace attnlab {
namespace {

MatrixCell cellOf(const std::vector<double>& values, bool higherIsBetter)
{
    MatrixCell cell;
    const RepeatStatistics stats(values);
    cell.n = static_cast<int>(values.size());
    cell.mean = stats.mean();
    cell.std = stats.sampleStd();
    if (!values.empty())
        cell.top = higherIsBetter ? *std::max_element(values.begin(), values.end())
                                  : *std::min_element(values.begin(), values.end());
    return cell;
}

// Marks the cells whose statistic (the mean, or the top) is the best of the column; ties: all of them.
void markBest(std::vector<MatrixCell*> column, bool higherIsBetter, double MatrixCell::*statistic,
              bool MatrixCell::*flag)
{
    const MatrixCell* best = nullptr;
    for (const MatrixCell* c : column)
        if (c->n > 0 &&
            (!best || (higherIsBetter ? c->*statistic > best->*statistic : c->*statistic < best->*statistic)))
            best = c;
    if (best)
        for (MatrixCell* c : column)
            c->*flag = c->n > 0 && c->*statistic == best->*statistic;
}

// The keys that say what a thesis row is, when all runs of a row agree on them; empty when they do not.
std::map<std::string, std::string> sharedConfig(const std::vector<const RunRecord*>& runs)
{
    if (runs.empty())
        return {};
    // Repeats of one configuration share a group key (the config without its seed): parsing one config per
    // key, not per run, keeps a 10,000-run matrix fast.
    std::set<std::string> seen{runs.front()->groupKey};
    auto shared = RunField::flatConfig(*runs.front());
    for (std::size_t i = 1; i < runs.size() && !shared.empty(); ++i) {
        if (!runs[i]->groupKey.empty() && !seen.insert(runs[i]->groupKey).second)
            continue;
        const auto other = RunField::flatConfig(*runs[i]);
        for (auto it = shared.begin(); it != shared.end();) {
            const auto found = other.find(it->first);
            it = (found == other.end() || found->second != it->second) ? shared.erase(it) : std::next(it);
        }
    }
    return shared;
}

} // namespace

ResultsMatrix ResultsMatrix::build(const std::vector<RunRecord>& runs, const Options& options)
{
    RunField::checkMetric(options.metric);
    ResultsMatrix m;
    m.options_ = options;
    // (row, column) -> values, and the runs of each (row, column) for the thesis lookup.
    std::map<std::string, std::map<std::string, std::vector<double>>> values;
    std::map<std::pair<std::string, std::string>, std::vector<const RunRecord*>> members;
    std::map<std::string, bool> seenColumns;
    int regressionRuns = 0;
    // Config keys need the configuration parsed: once per group key (repeats share one), not per run.
    const bool parse = !RunField::isRecordField(options.rows) || !RunField::isRecordField(options.columns);
    std::map<std::string, std::map<std::string, std::string>> flatByGroup;
    const std::map<std::string, std::string> none;
    for (const RunRecord& r : runs) {
        const auto value = RunField::metric(r, options.metric);
        if (!value || !std::isfinite(*value))
            continue;
        const std::map<std::string, std::string>* config = &none;
        std::map<std::string, std::string> own;
        if (parse && !r.groupKey.empty()) {
            auto found = flatByGroup.find(r.groupKey);
            if (found == flatByGroup.end())
                found = flatByGroup.emplace(r.groupKey, RunField::flatConfig(r)).first;
            config = &found->second;
        } else if (parse) {
            own = RunField::flatConfig(r);
            config = &own;
        }
        const std::string row = RunField::text(r, options.rows, *config);
        const std::string column = RunField::text(r, options.columns, *config);
        values[row][column].push_back(*value);
        members[{row, column}].push_back(&r);
        seenColumns[column] = true;
        regressionRuns += r.regression ? 1 : 0;
        ++m.runsUsed_;
    }
    m.regression_ = m.runsUsed_ > 0 && regressionRuns * 2 > m.runsUsed_;
    for (const auto& [column, seen] : seenColumns)
        m.columns_.push_back(column);
    for (const auto& [row, byColumn] : values)
        m.rows_.push_back(row);

    m.cells_.assign(m.rows_.size(), std::vector<MatrixCell>(m.columns_.size()));
    m.thesisLabels_.assign(m.rows_.size(), "");
    for (std::size_t r = 0; r < m.rows_.size(); ++r)
        for (std::size_t c = 0; c < m.columns_.size(); ++c) {
            const auto& byColumn = values[m.rows_[r]];
            const auto found = byColumn.find(m.columns_[c]);
            if (found == byColumn.end())
                continue;
            MatrixCell& cell = m.cells_[r][c] = cellOf(found->second, m.higherIsBetter());
            const auto shared = sharedConfig(members[{m.rows_[r], m.columns_[c]}]);
            cell.thesis = ThesisReference::builtIn().find(shared, options.metric, m.regression_);
            if (cell.thesis && m.thesisLabels_[r].empty())
                m.thesisLabels_[r] = cell.thesis->label;
        }

    m.hasAverage_ = options.average && m.columns_.size() > 1;
    if (m.hasAverage_) {
        m.averages_.assign(m.rows_.size(), MatrixCell{});
        for (std::size_t r = 0; r < m.rows_.size(); ++r) {
            std::vector<double> means, thesis;
            for (const MatrixCell& cell : m.cells_[r]) {
                if (cell.n > 0)
                    means.push_back(cell.mean);
                if (cell.thesis)
                    thesis.push_back(cell.thesis->value);
            }
            if (means.size() != m.columns_.size())
                continue; // a macro-average over some of the columns would not compare with the others
            MatrixCell& avg = m.averages_[r] = cellOf(means, m.higherIsBetter());
            avg.std = 0.0; // the spread of dataset means is not a run-to-run std: not shown
            if (thesis.size() == m.columns_.size()) {
                ThesisValue v;
                v.table = m.cells_[r].front().thesis->table;
                v.label = m.thesisLabels_[r];
                v.value = RepeatStatistics(thesis).mean();
                avg.thesis = v;
            }
        }
    }
    for (std::size_t c = 0; c < m.columns_.size(); ++c) {
        std::vector<MatrixCell*> column;
        for (auto& row : m.cells_)
            column.push_back(&row[c]);
        markBest(column, m.higherIsBetter(), &MatrixCell::mean, &MatrixCell::best);
        markBest(column, m.higherIsBetter(), &MatrixCell::top, &MatrixCell::bestTop);
    }
    if (m.hasAverage_) {
        std::vector<MatrixCell*> column;
        for (auto& a : m.averages_)
            column.push_back(&a);
        markBest(column, m.higherIsBetter(), &MatrixCell::mean, &MatrixCell::best);
    }
    return m;
}

bool ResultsMatrix::higherIsBetter() const { return RunField::higherIsBetter(options_.metric, regression_); }
bool ResultsMatrix::percent() const { return RunField::isPercent(options_.metric, regression_); }

std::string ResultsMatrix::format(const MatrixCell& cell, int decimals) const
{
    if (cell.n == 0)
        return "";
    const double scale = percent() ? 100.0 : 1.0;
    std::string text = fixedDecimals(cell.mean * scale, decimals);
    if (cell.n > 1 && cell.std > 0.0)
        text += " " + TableDocument::kPlusMinus + " " + fixedDecimals(cell.std * scale, decimals);
    return text + " (" + std::to_string(cell.n) + ")";
}

std::string ResultsMatrix::formatTop(const MatrixCell& cell, int decimals) const
{
    return cell.n == 0 ? "" : fixedDecimals(cell.top * (percent() ? 100.0 : 1.0), decimals);
}

TableDocument ResultsMatrix::table(int decimals, bool withThesis) const
{
    TableDocument t;
    const std::string unit = percent() ? " (%)" : "";
    t.caption = options_.metric + unit + ": mean " + TableDocument::kPlusMinus + " sample std (n runs) over " +
        std::to_string(runsUsed_) + " completed runs" +
        (options_.top ? std::string("; top: the best single run of the n") : std::string()) +
        "; best of each column in bold";
    t.header.push_back(options_.rows);
    for (const auto& c : columns_) {
        if (options_.top)
            t.header.push_back(c + " top");
        t.header.push_back(c);
    }
    if (hasAverage_)
        t.header.push_back("macro-average");
    t.numeric.assign(t.header.size(), true);
    t.numeric[0] = false;
    const double scale = percent() ? 100.0 : 1.0;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        std::vector<TableDocument::Cell> row{{rows_[r], false}};
        for (const MatrixCell& cell : cells_[r]) {
            if (options_.top)
                row.push_back({formatTop(cell, decimals), cell.bestTop});
            row.push_back({format(cell, decimals), cell.best});
        }
        if (hasAverage_)
            row.push_back({averages_[r].n ? fixedDecimals(averages_[r].mean * scale, decimals) : "", averages_[r].best});
        t.rows.push_back(row);
        if (!withThesis || thesisLabels_[r].empty())
            continue;
        std::vector<TableDocument::Cell> thesis{{"thesis: " + thesisLabels_[r], false}};
        for (const MatrixCell& cell : cells_[r]) {
            if (options_.top)
                thesis.push_back(
                    {cell.thesis && cell.thesis->top ? fixedDecimals(*cell.thesis->top * scale, decimals) : "", false});
            std::string text;
            if (cell.thesis) {
                text = fixedDecimals(cell.thesis->value * scale, decimals);
                if (cell.thesis->hasStd)
                    text += " " + TableDocument::kPlusMinus + " " + fixedDecimals(cell.thesis->std * scale, decimals);
                text += " (" + std::to_string(cell.thesis->runs) + ")";
            }
            thesis.push_back({text, false});
        }
        if (hasAverage_)
            thesis.push_back({averages_[r].thesis ? fixedDecimals(averages_[r].thesis->value * scale, decimals) : "", false});
        t.rows.push_back(thesis);
    }
    return t;
}

std::string ResultsMatrix::toJson() const
{
    auto cellJson = [](const MatrixCell& c, bool withTop) {
        nlohmann::json o = {{"n", c.n}, {"best", c.best}};
        if (c.n > 0) {
            o["mean"] = c.mean;
            o["std"] = c.std;
            if (withTop) // a row's average has no single best run
                o["top"] = c.top;
        }
        if (c.thesis)
            o["thesis"] = {{"table", c.thesis->table},
                           {"label", c.thesis->label},
                           {"value", c.thesis->value},
                           {"std", c.thesis->hasStd ? nlohmann::json(c.thesis->std) : nlohmann::json()},
                           {"runs", c.thesis->runs},
                           {"top", c.thesis->top ? nlohmann::json(*c.thesis->top) : nlohmann::json()}};
        return o;
    };
    nlohmann::json doc = {{"rows_key", options_.rows}, {"columns_key", options_.columns},
                          {"metric", options_.metric}, {"regression", regression_},
                          {"higher_is_better", higherIsBetter()}, {"runs_used", runsUsed_},
                          {"rows", rows_}, {"columns", columns_}};
    nlohmann::json cells = nlohmann::json::array();
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (const MatrixCell& c : cells_[r])
            row.push_back(cellJson(c, true));
        cells.push_back(row);
    }
    doc["cells"] = cells;
    if (hasAverage_) {
        nlohmann::json avg = nlohmann::json::array();
        for (const MatrixCell& a : averages_)
            avg.push_back(cellJson(a, false));
        doc["macro_average"] = avg;
    }
    return doc.dump();
}

} // namespace attnlab
