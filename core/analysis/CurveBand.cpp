#include "core/analysis/CurveBand.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace attnlab {

std::vector<BandPoint> CurveBand::of(const std::vector<std::vector<CurvePoint>>& curves)
{
    std::map<double, std::vector<double>> byX;
    for (const auto& curve : curves)
        for (const CurvePoint& p : curve)
            if (std::isfinite(p.value))
                byX[p.x].push_back(p.value);
    std::vector<BandPoint> band;
    band.reserve(byX.size());
    for (const auto& [x, values] : byX) {
        BandPoint b;
        b.x = x;
        b.n = static_cast<int>(values.size());
        double sum = 0.0;
        for (double v : values)
            sum += v;
        b.mean = sum / b.n;
        if (b.n > 1) {
            double squares = 0.0; // two passes: exact for values far from zero, unlike sum of squares
            for (double v : values)
                squares += (v - b.mean) * (v - b.mean);
            b.std = std::sqrt(squares / (b.n - 1));
        }
        band.push_back(b);
    }
    return band;
}

std::vector<CurvePoint> CurveBand::remap(const std::vector<CurvePoint>& curve, const std::vector<CurvePoint>& axis)
{
    if (axis.empty())
        return curve;
    std::vector<CurvePoint> mapped;
    mapped.reserve(curve.size());
    for (const CurvePoint& p : curve) {
        auto after = std::lower_bound(axis.begin(), axis.end(), p.x,
                                      [](const CurvePoint& a, double x) { return a.x < x; });
        double x;
        if (after == axis.begin())
            x = axis.front().value;
        else if (after == axis.end())
            x = axis.back().value;
        else if (after->x == p.x)
            x = after->value;
        else {
            const CurvePoint& before = *(after - 1);
            const double t = (p.x - before.x) / (after->x - before.x);
            x = before.value + t * (after->value - before.value);
        }
        mapped.push_back({x, p.value});
    }
    return mapped;
}

} // namespace attnlab
