#pragma once
#include "core/analysis/CurveBand.h"
#include "ui/analysis/CompareOptions.h"

#include <QtCore/QString>

#include <vector>

namespace attnlab::ui {

class RunCurves;

// One thing a compare panel draws: a run's curve (or a group's mean curve with its ± std band) on one
// split, or a test point. Computed from the full stored data; decimation for the screen happens later.
struct PlotSeries {
    enum class Kind { Line, Points };
    Kind kind = Kind::Line;
    QString id;        // graph object name suffix: "train_r12" (run 12), "dev_g0" (first group), "test_r12"
    QString split;     // train, dev or test
    QString label;     // legend text: "#12 ssan + rpr" or "model=ssan (n=3)"
    int colour = 0;    // palette index: one per run or per group
    std::vector<CurvePoint> points;     // what is drawn: smoothed values, or a group's means
    std::vector<CurvePoint> raw;        // the unsmoothed curve drawn faint behind (empty without smoothing)
    std::vector<BandPoint> band;        // a group's mean ± std per x (empty for a single run)
    bool reference = false;             // not a run's: the real series a forecast is drawn against
};

// Turns stored curves into what a panel draws, for one metric: TensorBoard's de-biased EMA
// (CurveSmoothing), steps mapped to epochs or wall seconds (CurveBand::remap) and, when grouping, one
// mean ± std per group over all its runs (CurveBand::of of the smoothed curves). Test values are points:
// a group's is the mean ± std of its runs' test values, at the last step any of them was tested. A forecast comes
// with the real series first (reference).
class CompareSeries {
public:
    static std::vector<PlotSeries> build(const RunCurves& curves, const QString& metric, const CompareOptions& options);
    // The axis actually used: the one asked for, or Step when a run lacks it (runs stored before the
    // trainer logged epochs and wall time).
    static CompareAxis effectiveAxis(const RunCurves& curves, CompareAxis asked);
    // The group of each run under `keys` ("model=ssan, position=rpr"), "" without keys.
    static QString groupOf(const RunCurves& curves, int run, const QStringList& keys);

private:
    static std::vector<PlotSeries> runSeries(const RunCurves& curves, const QString& metric, const CompareOptions& options);
};

} // namespace attnlab::ui
