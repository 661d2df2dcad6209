#pragma once
#include <qcustomplot.h>

#include <vector>

namespace attnlab::ui {

// Display decimation: a curve of many more points than the plot has pixel columns is drawn from a few
// of its points per column, chosen so the picture stays the same (each column's first, lowest, highest
// and last point: the min/max of the column plus where its line enters and leaves). Only the drawing is
// reduced; statistics and hover values always come from the full data.
class CurveDecimator {
public:
    // The points of (x, y) (x sorted) within [low, high] and one more on each side, so lines reach the
    // plot's edges: all of them when there are at most 2 × columns, else at most 4 per column.
    static QVector<QCPGraphData> minMax(const std::vector<double>& x, const std::vector<double>& y, double low,
                                        double high, int columns);
    // The outer edge of a band: per column the highest (upper) or lowest (!upper) value, held across
    // the column, so a decimated band never looks narrower than the data.
    static QVector<QCPGraphData> envelope(const std::vector<double>& x, const std::vector<double>& y, double low,
                                          double high, int columns, bool upper);
};

} // namespace attnlab::ui
