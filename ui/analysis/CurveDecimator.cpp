#include "ui/analysis/CurveDecimator.h"

#include <algorithm>
#include <cmath>

namespace attnlab::ui {
namespace {

struct Span {
    std::size_t begin = 0, end = 0;
};

// Indexes of the points in [low, high] plus one neighbour each side.
Span visible(const std::vector<double>& x, double low, double high)
{
    Span s;
    s.begin = static_cast<std::size_t>(std::lower_bound(x.begin(), x.end(), low) - x.begin());
    s.end = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), high) - x.begin());
    if (s.begin > 0)
        --s.begin;
    if (s.end < x.size())
        ++s.end;
    return s;
}

// The column of x among `columns` over [low, high]; points outside get -1 and `columns`.
long columnOf(double x, double low, double width, int columns)
{
    if (x < low)
        return -1;
    if (x > low + width * columns)
        return columns;
    return std::min<long>(static_cast<long>((x - low) / width), columns - 1);
}

// Nothing visible, or few enough points to draw them all (at most two per column): `out` gets them as
// they are, and true says there is nothing to decimate.
bool fewEnough(const std::vector<double>& x, const std::vector<double>& y, const Span& span, int columns, double low,
               double high, QVector<QCPGraphData>& out)
{
    if (span.end <= span.begin)
        return true;
    if (span.end - span.begin > 2 * static_cast<std::size_t>(columns) && high > low)
        return false;
    out.reserve(static_cast<int>(span.end - span.begin));
    for (std::size_t i = span.begin; i < span.end; ++i)
        out.append(QCPGraphData(x[i], y[i]));
    return true;
}

} // namespace

QVector<QCPGraphData> CurveDecimator::minMax(const std::vector<double>& x, const std::vector<double>& y, double low,
                                             double high, int columns)
{
    const Span span = visible(x, low, high);
    QVector<QCPGraphData> out;
    columns = std::max(columns, 1);
    if (fewEnough(x, y, span, columns, low, high, out))
        return out;
    out.reserve(4 * columns + 8);
    const double width = (high - low) / columns;
    std::size_t first = span.begin, last = span.begin, lowest = span.begin, highest = span.begin;
    bool open = false;
    long column = 0;
    auto flush = [&] {
        std::size_t picks[4] = {first, lowest, highest, last};
        std::sort(picks, picks + 4);
        for (int k = 0; k < 4; ++k)
            if (k == 0 || picks[k] != picks[k - 1])
                out.append(QCPGraphData(x[picks[k]], y[picks[k]]));
    };
    for (std::size_t i = span.begin; i < span.end; ++i) {
        if (!std::isfinite(y[i]))
            continue; // a diverged value draws nothing either way
        const long c = columnOf(x[i], low, width, columns);
        if (!open || c != column) {
            if (open)
                flush();
            open = true;
            column = c;
            first = last = lowest = highest = i;
            continue;
        }
        last = i;
        if (y[i] < y[lowest])
            lowest = i;
        if (y[i] > y[highest])
            highest = i;
    }
    if (open)
        flush();
    return out;
}

QVector<QCPGraphData> CurveDecimator::envelope(const std::vector<double>& x, const std::vector<double>& y,
                                               double low, double high, int columns, bool upper)
{
    const Span span = visible(x, low, high);
    QVector<QCPGraphData> out;
    columns = std::max(columns, 1);
    if (fewEnough(x, y, span, columns, low, high, out))
        return out;
    const double width = (high - low) / columns;
    std::size_t first = span.begin, last = span.begin;
    double extreme = 0.0;
    bool open = false;
    long column = 0;
    auto flush = [&] {
        out.append(QCPGraphData(x[first], extreme));
        if (last != first)
            out.append(QCPGraphData(x[last], extreme));
    };
    for (std::size_t i = span.begin; i < span.end; ++i) {
        if (!std::isfinite(y[i]))
            continue;
        const long c = columnOf(x[i], low, width, columns);
        if (!open || c != column) {
            if (open)
                flush();
            open = true;
            column = c;
            first = last = i;
            extreme = y[i];
            continue;
        }
        last = i;
        extreme = upper ? std::max(extreme, y[i]) : std::min(extreme, y[i]);
    }
    if (open)
        flush();
    return out;
}

} // namespace attnlab::ui
