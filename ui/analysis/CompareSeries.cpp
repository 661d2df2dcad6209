#include "ui/analysis/CompareSeries.h"

#include "core/analysis/CurveSmoothing.h"
#include "ui/analysis/RunCurves.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QStringList>

#include <algorithm>

namespace attnlab::ui {
namespace {

std::vector<CurvePoint> smoothed(const std::vector<CurvePoint>& curve, double weight)
{
    if (weight <= 0.0)
        return curve;
    std::vector<double> values;
    values.reserve(curve.size());
    for (const CurvePoint& p : curve)
        values.push_back(p.value);
    values = CurveSmoothing::exponential(values, weight);
    std::vector<CurvePoint> out = curve;
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].value = values[i];
    return out;
}

std::vector<CurvePoint> means(const std::vector<BandPoint>& band)
{
    std::vector<CurvePoint> out;
    out.reserve(band.size());
    for (const BandPoint& b : band)
        out.push_back({b.x, b.mean});
    return out;
}

} // namespace

CompareAxis CompareSeries::effectiveAxis(const RunCurves& curves, CompareAxis asked)
{
    return curves.runsWithoutAxis(asked).isEmpty() ? asked : CompareAxis::Step;
}

QString CompareSeries::groupOf(const RunCurves& curves, int run, const QStringList& keys)
{
    QStringList parts;
    for (const QString& key : keys)
        parts.append(key + QLatin1Char('=') + curves.configValue(run, key));
    return parts.join(QStringLiteral(", "));
}

std::vector<PlotSeries> CompareSeries::build(const RunCurves& curves, const QString& metric,
                                             const CompareOptions& options)
{
    auto series = runSeries(curves, metric, options);
    // A forecast is read against the real series, drawn first (under the predictions) in the reference colour.
    if (metric == QLatin1String("forecast") && !curves.forecastActual().empty() && !series.empty()) {
        PlotSeries real;
        real.reference = true;
        real.split = QStringLiteral("test");
        real.id = QStringLiteral("actual");
        real.label = QCoreApplication::translate("CompareSeries", "real %1").arg(curves.forecastTarget());
        real.colour = -1;
        real.points = curves.forecastActual();
        series.insert(series.begin(), std::move(real));
    }
    return series;
}

std::vector<PlotSeries> CompareSeries::runSeries(const RunCurves& curves, const QString& metric,
                                                 const CompareOptions& options)
{
    const CompareAxis axis = effectiveAxis(curves, options.axis);
    // A run's curve as drawn: on the chosen x axis; smoothing along the run's own order of points.
    auto prepared = [&](int run, const QString& split, bool smooth) {
        const auto& stored = curves.curve(run, split, metric);
        if (RunCurves::isProfile(metric)) // x is a distance, not a step: neither remapped nor smoothed
            return stored;
        const auto& xs = curves.axis(run, axis);
        return CurveBand::remap(smooth && split != QLatin1String("test") ? smoothed(stored, options.smoothing) : stored,
                                xs);
    };
    // A test metric is one value a run (points); a profile over lengths or distances is a line whatever its split
    // (test BLEU by source length), and a group's runs make a band along it.
    auto kindOf = [&](const QString& split) {
        return split == QLatin1String("test") && !RunCurves::isProfile(metric) ? PlotSeries::Kind::Points : PlotSeries::Kind::Line;
    };
    std::vector<PlotSeries> series;
    if (options.groupBy.isEmpty()) {
        for (const QString& split : options.splits) {
            for (int r = 0; r < curves.size(); ++r) {
                if (curves.curve(r, split, metric).empty())
                    continue;
                PlotSeries s;
                s.kind = kindOf(split);
                s.split = split;
                s.id = QStringLiteral("%1_r%2").arg(split).arg(curves.run(r).id);
                s.label = curves.label(r);
                s.colour = r;
                s.points = prepared(r, split, true);
                if (options.smoothing > 0.0 && s.kind == PlotSeries::Kind::Line)
                    s.raw = prepared(r, split, false);
                series.push_back(std::move(s));
            }
        }
        return series;
    }
    // Groups in the order their first run was selected; every run of a group enters its band.
    QStringList groups;
    std::vector<std::vector<int>> members;
    for (int r = 0; r < curves.size(); ++r) {
        const QString g = groupOf(curves, r, options.groupBy);
        int index = static_cast<int>(groups.indexOf(g));
        if (index < 0) {
            index = static_cast<int>(groups.size());
            groups.append(g);
            members.emplace_back();
        }
        members[static_cast<std::size_t>(index)].push_back(r);
    }
    for (const QString& split : options.splits) {
        for (int g = 0; g < groups.size(); ++g) {
            std::vector<std::vector<CurvePoint>> drawn, raw;
            for (int r : members[static_cast<std::size_t>(g)]) {
                if (curves.curve(r, split, metric).empty())
                    continue;
                drawn.push_back(prepared(r, split, true));
                if (options.smoothing > 0.0)
                    raw.push_back(prepared(r, split, false));
            }
            if (drawn.empty())
                continue;
            PlotSeries s;
            s.kind = kindOf(split);
            s.split = split;
            s.id = QStringLiteral("%1_g%2").arg(split).arg(g);
            s.label = QStringLiteral("%1 (n=%2)").arg(groups[g]).arg(members[static_cast<std::size_t>(g)].size());
            s.colour = g;
            if (s.kind == PlotSeries::Kind::Points) {
                // Each run measures test once, at its own step (its best dev step): the group's test is
                // one mean ± std of those values, drawn at the last of their steps.
                std::vector<std::vector<CurvePoint>> last;
                double x = 0.0;
                for (const auto& curve : drawn) {
                    x = std::max(x, curve.back().x);
                    last.push_back({{0.0, curve.back().value}});
                }
                s.band = CurveBand::of(last);
                for (BandPoint& b : s.band)
                    b.x = x;
            } else {
                s.band = CurveBand::of(drawn);
            }
            s.points = means(s.band);
            if (!raw.empty() && s.kind == PlotSeries::Kind::Line)
                s.raw = means(CurveBand::of(raw));
            series.push_back(std::move(s));
        }
    }
    return series;
}

} // namespace attnlab::ui
