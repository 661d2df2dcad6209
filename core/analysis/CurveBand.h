#pragma once
#include <vector>

namespace attnlab {

// One point of a group's curve: at a step, the mean and sample std (n - 1) of the value over every run
// of the group that logged that step, and how many did. Exact: all runs, never a sample of them.
struct BandPoint {
    double x = 0.0;
    double mean = 0.0;
    double std = 0.0; // 0 when n < 2
    int n = 0;
};

// A curve: (x, value) points in increasing x, e.g. one run's dev accuracy by step.
struct CurvePoint {
    double x = 0.0;
    double value = 0.0;
};

// The mean ± std band of a group of runs' curves of one metric: at every x any run has, over the runs
// that have it (runs logging at different steps are not interpolated; their x values simply join the union).
class CurveBand {
public:
    static std::vector<BandPoint> of(const std::vector<std::vector<CurvePoint>>& curves);
    // Maps a curve's steps onto another axis (epochs, wall seconds) known at some steps: linear
    // interpolation between the known points, the nearest known one outside them. Empty `axis` = unchanged.
    static std::vector<CurvePoint> remap(const std::vector<CurvePoint>& curve, const std::vector<CurvePoint>& axis);
};

} // namespace attnlab
