#include "ui/analysis/ComparePanel.h"

#include "ui/analysis/CurveDecimator.h"
#include "ui/analysis/ForecastAttentionStrip.h"
#include "ui/analysis/RunCurves.h"
#include "ui/analysis/RunPalette.h"

#include <QtWidgets/QToolTip>

#include <algorithm>
#include <utility>
#include <cmath>
#include <limits>
#include <map>

namespace attnlab::ui {
namespace {

const QColor kKeyColour(90, 90, 90);
const QColor kReferenceColour(110, 110, 110); // the real series under a forecast: grey, never a run's colour

QPen splitPen(const QString& split, const QColor& colour, double width)
{
    QPen pen(colour, width);
    if (split == QLatin1String("dev"))
        pen.setStyle(Qt::DashLine);
    return pen;
}

QString axisTitle(CompareAxis axis)
{
    switch (axis) {
    case CompareAxis::Epoch: return ComparePanel::tr("epoch");
    case CompareAxis::WallTime: return ComparePanel::tr("wall time (s)");
    case CompareAxis::Step: break;
    }
    return ComparePanel::tr("step");
}

QString splitTitle(const QString& split)
{
    if (split == QLatin1String("train")) return ComparePanel::tr("train");
    if (split == QLatin1String("dev")) return ComparePanel::tr("dev");
    if (split == QLatin1String("test")) return ComparePanel::tr("test");
    return split;
}

QString numberText(double v)
{
    return QString::number(v, 'g', 6);
}

} // namespace

ComparePanel::~ComparePanel() = default;

ComparePanel::ComparePanel(const QString& metric, QWidget* parent) : QCustomPlot(parent), metric_(metric)
{
    setObjectName(QStringLiteral("panel_") + metric);
    setMinimumSize(320, 240);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setNoAntialiasingOnDrag(true);
    setContextMenuPolicy(Qt::CustomContextMenu);

    // Title and note, then the legend in a row of its own (so it never covers a curve), then the plot.
    auto* heading = new QCPLayoutGrid;
    title_ = new QCPTextElement(this, metricTitle(metric), QFont(font().family(), 10, QFont::Bold));
    title_->setMargins(QMargins(2, 4, 2, 0));
    note_ = new QCPTextElement(this, QString(), QFont(font().family(), 8));
    note_->setTextColor(QColor(150, 60, 0));
    note_->setMargins(QMargins(2, 0, 2, 0));
    heading->addElement(0, 0, title_);
    heading->addElement(1, 0, note_);
    heading->setRowSpacing(0);
    plotLayout()->insertRow(0);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, heading);
    legend_ = legend;
    axisRect()->insetLayout()->take(legend_);
    plotLayout()->addElement(1, 0, legend_);
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowStretchFactor(1, 0.001);
    legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend_->setBorderPen(Qt::NoPen);
    legend_->setBrush(Qt::NoBrush);
    legend_->setFont(QFont(font().family(), 8));
    legend_->setIconSize(22, 10);
    legend_->setMargins(QMargins(4, 0, 4, 0));
    legend_->setVisible(true);
    axisRect()->setupFullAxesBox(true);
    yAxis->setLabel(metricTitle(metric));
    xAxis->setLabel(axisTitle(CompareAxis::Step));

    // Zooming or dragging along x shows other columns: draw them from the full data again.
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { redecimate(); });
    // A new layout (resize, or an export's size in toPainter) has other pixel columns: decimate for them
    // before this layout is drawn.
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        if (columns() != decimatedColumns_)
            redecimate();
    });
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = pointText(event->position());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, this);
    });
    // QCustomPlot queues a replot when it is made, and a panel made for newly selected runs is still hidden
    // (not yet laid out) when it fires; it is drawn again once shown at its size. Drawing 100 curves for
    // that first, unseen replot cost as much as the one that shows: while hidden, the curves are skipped
    // and drawn at the next paint.
    connect(this, &QCustomPlot::beforeReplot, this, [this] {
        if (!isVisible() && !painting_) {
            layer(QStringLiteral("main"))->setVisible(false);
            curvesSkipped_ = true;
        }
    });
    connect(this, &QCustomPlot::afterReplot, this, [this] {
        if (std::exchange(curvesSkipped_, false)) {
            layer(QStringLiteral("main"))->setVisible(true);
            replotBeforePaint_ = true;
        }
    });
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this] {
        fitToData();
        replot(rpQueuedReplot);
    });
}

QString ComparePanel::metricTitle(const QString& metric)
{
    if (metric == QLatin1String("loss")) return tr("loss");
    if (metric == QLatin1String("accuracy")) return tr("accuracy");
    if (metric == QLatin1String("macro_f1")) return tr("macro-F1");
    if (metric == QLatin1String("repeat_loss")) return tr("loss on the repeated tokens");
    if (metric == QLatin1String("induction_score")) return tr("induction score (best head)");
    if (metric == QLatin1String("rmse")) return tr("RMSE");
    if (metric == QLatin1String("mae")) return tr("MAE");
    if (metric == QLatin1String("mape")) return tr("MAPE (%)");
    if (metric == QLatin1String("learning_rate")) return tr("learning rate");
    if (metric == QLatin1String("grad_norm")) return tr("gradient norm (before clipping)");
    if (metric == QLatin1String("grad_by_distance")) return tr("‖∂L/∂word‖ ÷ the last word's");
    if (metric == QLatin1String("grad_by_layer")) return tr("gradient norm by layer");
    if (metric == QLatin1String("bleu")) return tr("BLEU");
    if (metric == QLatin1String("bleu_by_length")) return tr("test BLEU by source length");
    if (metric == QLatin1String("forecast")) return tr("forecast");
    if (metric == QLatin1String("forecast_error")) return tr("forecast error");
    if (metric == QLatin1String("rmse_by_horizon")) return tr("test RMSE by steps ahead");
    if (metric == QLatin1String("step_ms_by_length")) return tr("ms per training step");
    if (metric == QLatin1String("forward_ms_by_length")) return tr("ms per forward");
    if (metric == QLatin1String("memory_by_length")) return tr("peak MiB while training");
    return metric;
}

void ComparePanel::setXLabels(const QStringList& labels)
{
    xLabels_ = labels;
    if (labels.isEmpty()) {
        xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        xAxis->setTickLabelRotation(0);
        return;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i)
        ticker->addTick(i, labels[i]);
    xAxis->setTicker(ticker);
    xAxis->setTickLabelRotation(labels.size() > 6 ? 60 : 0);
}

void ComparePanel::setAttentionStrip(const RunCurves::ForecastAttention& attention, const QString& runLabel)
{
    if (!strip_)
        strip_ = std::make_unique<ForecastAttentionStrip>(this, axisRect());
    strip_->show(attention, runLabel);
}

QCPColorMap* ComparePanel::attentionStrip() const
{
    return strip_ ? strip_->map() : nullptr;
}

void ComparePanel::setTitle(const QString& title)
{
    title_->setText(title);
}

QString ComparePanel::note() const
{
    return note_->text();
}

void ComparePanel::setLegendLimit(int entries)
{
    legendLimit_ = std::max(0, entries);
    rebuildLegend();
}

void ComparePanel::setSampling(DisplaySampling sampling)
{
    sampling_ = sampling;
    holdsAll_ = false;
    redecimate();
}

bool ComparePanel::isDecimated() const
{
    return std::any_of(drawn_.begin(), drawn_.end(), [](const Drawn& d) {
        return d.graph->data()->size() < static_cast<int>(d.x.size());
    });
}

QCPGraph* ComparePanel::addCurveGraph(const QString& name)
{
    QCPGraph* graph = addGraph(xAxis, yAxis);
    graph->setObjectName(name);
    graph->removeFromLegend();
    graph->setAdaptiveSampling(false); // ours is (redecimate), and it keeps every column's min and max
    return graph;
}

void ComparePanel::setSeries(std::vector<PlotSeries> series, const CompareOptions& options, CompareAxis axis,
                             const QString& note)
{
    clearGraphs();
    drawn_.clear();
    holdsAll_ = false;
    legendGraphs_.clear();
    series_ = std::move(series);
    axis_ = axis;
    const bool profile = RunCurves::isProfile(metric_);
    const bool bleuByLength = metric_ == QLatin1String("bleu_by_length");
    const bool byHorizon = metric_ == QLatin1String("rmse_by_horizon");
    const bool forecast = metric_ == QLatin1String("forecast") || metric_ == QLatin1String("forecast_error");
    logY_ = options.logY || (profile && !bleuByLength && !forecast && !byHorizon); // a vanishing gradient spans orders of magnitude
    const bool layers = metric_ == QLatin1String("grad_by_layer");
    const bool lengths = RunCurves::isLengthProfile(metric_);
    note_->setText(forecast       ? (metric_ == QLatin1String("forecast")
                                         ? tr("the test split, with each run's best-dev weights; grey: the real series")
                                         : tr("prediction less the real value, on the test split"))
                   : byHorizon    ? tr("each window predicts every step at once, from the same past")
                   : bleuByLength ? tr("the test split's sentences grouped by their source's words, each group a corpus")
                   : lengths ? tr("log-log: a slope of 1 is linear in the length, 2 quadratic")
                   : layers  ? tr("at each run's last log step, before clipping")
                   : profile ? tr("at each run's last evaluation, mean over dev sentences")
                             : note);
    xAxis->setLabel(forecast       ? tr("row of the series")
                    : byHorizon    ? tr("steps ahead")
                    : bleuByLength ? tr("source words (from)")
                    : lengths ? tr("sentence length (tokens)")
                    : layers  ? tr("layer, input to output")
                    : profile ? tr("distance from the last word (tokens)")
                              : axisTitle(axis));
    if (lengths) {
        xAxis->setScaleType(QCPAxis::stLogarithmic);
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setLogBase(2); // the lengths a benchmark doubles through
        xAxis->setTicker(ticker);
        xAxis->setNumberFormat(QStringLiteral("f"));
        xAxis->setNumberPrecision(0);
    }
    if (logY_) {
        yAxis->setScaleType(QCPAxis::stLogarithmic);
        yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        yAxis->setNumberFormat(QStringLiteral("gb"));
    } else {
        yAxis->setScaleType(QCPAxis::stLinear);
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        yAxis->setNumberFormat(QStringLiteral("gb"));
    }
    // A log axis has no place for zero or less: such points are left out (a NaN anyway draws nothing).
    auto keep = [this](double v) { return std::isfinite(v) && (!logY_ || v > 0.0); };
    drawn_.reserve(4 * series_.size()); // at most band (2), raw and line per series: references stay valid
    auto add = [&](Role role, int index, const QString& name, const std::vector<CurvePoint>& points) -> Drawn& {
        Drawn d;
        d.graph = addCurveGraph(name);
        d.role = role;
        d.series = index;
        for (const CurvePoint& p : points)
            if (keep(p.value)) {
                d.x.push_back(p.x);
                d.y.push_back(p.value);
            }
        drawn_.push_back(std::move(d));
        return drawn_.back();
    };

    // Bands first, raw curves next, lines on top: what the eye compares is never covered by a fill.
    for (int i = 0; i < static_cast<int>(series_.size()); ++i) {
        const PlotSeries& s = series_[static_cast<std::size_t>(i)];
        if (s.band.empty() || s.kind != PlotSeries::Kind::Line)
            continue;
        std::vector<CurvePoint> upper, lower;
        for (const BandPoint& b : s.band) {
            upper.push_back({b.x, b.mean + b.std});
            lower.push_back({b.x, b.mean - b.std});
        }
        QColor fill = RunPalette::colour(s.colour);
        fill.setAlpha(s.split == QLatin1String("dev") ? 40 : 55);
        Drawn& lo = add(Role::Lower, i, QStringLiteral("lower_") + s.id, lower);
        Drawn& up = add(Role::Upper, i, QStringLiteral("upper_") + s.id, upper);
        lo.graph->setPen(Qt::NoPen);
        up.graph->setPen(Qt::NoPen);
        up.graph->setBrush(fill);
        up.graph->setChannelFillGraph(lo.graph);
    }
    for (int i = 0; i < static_cast<int>(series_.size()); ++i) {
        const PlotSeries& s = series_[static_cast<std::size_t>(i)];
        if (s.raw.empty())
            continue;
        QColor faint = RunPalette::colour(s.colour);
        faint.setAlpha(60);
        Drawn& d = add(Role::Raw, i, QStringLiteral("raw_") + s.id, s.raw);
        d.graph->setPen(splitPen(s.split, faint, 1.0));
    }
    for (int i = 0; i < static_cast<int>(series_.size()); ++i) {
        const PlotSeries& s = series_[static_cast<std::size_t>(i)];
        const QColor colour = RunPalette::colour(s.colour);
        const bool points = s.kind == PlotSeries::Kind::Points;
        Drawn& d = add(points ? Role::Points : Role::Line, i, s.id, s.points);
        if (!s.band.empty()) {
            for (const BandPoint& b : s.band)
                if (keep(b.mean)) {
                    d.std.push_back(b.std);
                    d.n.push_back(b.n);
                }
        }
        if (s.reference) {
            d.graph->setPen(QPen(kReferenceColour, 1.5));
        } else if (points) {
            d.graph->setLineStyle(QCPGraph::lsNone);
            d.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, colour, 10));
            d.graph->setPen(QPen(colour, 1.6));
        } else {
            // A run's line 1 px wide: Qt strokes lines up to 1 px on its fast path, wider ones as filled
            // outlines, which made 100 overlaid runs take seconds to draw. A group's mean, one of a few, is bolder.
            d.graph->setPen(splitPen(s.split, colour, s.band.empty() ? 1.0 : 2.0));
        }
    }
    rebuildLegend();
    fitToData();
}

void ComparePanel::rebuildLegend()
{
    for (QCPGraph* g : legendGraphs_)
        removeGraph(g);
    legendGraphs_.clear();
    legend_->clearItems();
    auto key = [this](const QString& name, const QString& label) {
        QCPGraph* g = addGraph(xAxis, yAxis);
        g->setObjectName(name);
        g->setName(label);
        g->addToLegend(legend_);
        legendGraphs_.push_back(g);
        return g;
    };
    // The split keys: line style says the split, colour says the run or group.
    std::map<QString, bool> splits;
    for (const PlotSeries& s : series_)
        splits[s.split] = true;
    for (const char* split : {"train", "dev", "test"}) {
        if (!splits.count(QLatin1String(split)) || RunCurves::isLengthProfile(metric_)) // a benchmark's figures: no split
            continue;
        QCPGraph* g = key(QStringLiteral("key_") + QLatin1String(split), splitTitle(QLatin1String(split)));
        if (QLatin1String(split) == QLatin1String("test") && !RunCurves::isProfile(metric_)) { // a profile's test is a line
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, kKeyColour, 10));
        }
        g->setPen(splitPen(QLatin1String(split), kKeyColour, 1.5));
    }
    QList<QPair<QString, int>> labels;
    for (const PlotSeries& s : series_)
        if (!labels.contains({s.label, s.colour}))
            labels.append({s.label, s.colour});
    // At most legendLimit_ entries, and no more than fill a third of the panel: a short panel (the window at its
    // default size, four groups) would otherwise be all legend and no plot. The list beside the panels names them all.
    legendFits_ = legendEntriesThatFit(size());
    const int limit = std::min(legendLimit_, std::max(1, legendFits_ - legend_->itemCount()));
    const int shown = labels.size() <= limit ? static_cast<int>(labels.size()) : std::max(0, limit - 1);
    for (int i = 0; i < shown; ++i) {
        QCPGraph* g = key(QStringLiteral("legend_%1").arg(i), labels[i].first);
        g->setPen(QPen(labels[i].second < 0 ? kReferenceColour : RunPalette::colour(labels[i].second), 3));
    }
    if (shown < labels.size()) {
        QCPGraph* g = key(QStringLiteral("legend_more"), tr("+ %n more (see the list)", "", static_cast<int>(labels.size()) - shown));
        g->setPen(Qt::NoPen);
    }
    wrapLegend(width());
}

void ComparePanel::wrapLegend(int plotWidth)
{
    // As many legend columns as fit the width, so a long legend wraps into rows; items already placed
    // move only when the order is set again with rearranging.
    legend_->setWrap(std::max(1, (plotWidth - 20) / 180));
    legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
}

int ComparePanel::legendEntriesThatFit(const QSize& size)
{
    const int columns = std::max(1, (size.width() - 20) / 180); // wrapLegend's
    const int rows = std::max(1, size.height() / 3 / 16);       // a line of the 8-point legend is about 16 px
    return columns * rows;
}

void ComparePanel::resizeEvent(QResizeEvent* event)
{
    if (legendEntriesThatFit(event->size()) != legendFits_)
        rebuildLegend(); // size() is already the new one
    wrapLegend(event->size().width());
    // What QCustomPlot::resizeEvent does, less its immediate replot.
    setViewport(rect());
    replotBeforePaint_ = true;
    update();
}

void ComparePanel::paintEvent(QPaintEvent* event)
{
    if (std::exchange(replotBeforePaint_, false)) {
        painting_ = true; // a hidden panel painted by grab() draws its curves too
        replot(rpQueuedRefresh); // draws the buffers now, at the size the panel is painted at
        painting_ = false;
    }
    QCustomPlot::paintEvent(event);
}

int ComparePanel::columns() const
{
    const int w = axisRect()->width();
    return std::max(100, w > 0 ? w : width() - 80);
}

void ComparePanel::fitToData()
{
    double xLow = std::numeric_limits<double>::max(), xHigh = std::numeric_limits<double>::lowest();
    double yLow = xLow, yHigh = xHigh;
    for (const Drawn& d : drawn_) {
        if (d.x.empty())
            continue;
        xLow = std::min(xLow, d.x.front());
        xHigh = std::max(xHigh, d.x.back());
        for (double v : d.y) {
            yLow = std::min(yLow, v);
            yHigh = std::max(yHigh, v);
        }
    }
    if (xLow > xHigh) {
        xAxis->setRange(0, 1);
        yAxis->setRange(logY_ ? 0.1 : 0.0, 1.0);
        redecimate();
        return;
    }
    const double xPad = xHigh > xLow ? 0.02 * (xHigh - xLow) : 1.0;
    if (xAxis->scaleType() == QCPAxis::stLogarithmic) { // lengths: a factor either side, never below zero
        xAxis->setRange(xLow / 1.2, xHigh * 1.2);
        if (logY_) {
            const double factor = yHigh > yLow ? std::pow(yHigh / yLow, 0.05) : 2.0;
            yAxis->setRange(yLow / factor, yHigh * factor);
        }
        redecimate();
        return;
    }
    if (logY_) {
        const double factor = yHigh > yLow ? std::pow(yHigh / yLow, 0.05) : 2.0;
        yAxis->setRange(yLow / factor, yHigh * factor);
    } else {
        const double yPad = yHigh > yLow ? 0.05 * (yHigh - yLow) : std::max(1e-3, 0.05 * std::abs(yHigh));
        yAxis->setRange(yLow - yPad, yHigh + yPad);
    }
    // setRange emits rangeChanged only when the range changes: decimate in any case.
    const QCPRange before = xAxis->range();
    xAxis->setRange(xLow - xPad, xHigh + xPad);
    if (before == xAxis->range())
        redecimate();
}

void ComparePanel::redecimate()
{
    const QCPRange range = xAxis->range();
    const int n = columns();
    decimatedColumns_ = n;
    const bool ours = sampling_ == DisplaySampling::PixelColumns;
    if (!ours && holdsAll_)
        return; // every point is there already, whatever the range
    holdsAll_ = !ours;
    const double low = range.lower, high = range.upper;
    for (const Drawn& d : drawn_) {
        QVector<QCPGraphData> data;
        d.graph->setAdaptiveSampling(sampling_ == DisplaySampling::QCustomPlotAdaptive);
        if (!ours) {
            data.reserve(static_cast<int>(d.x.size()));
            for (std::size_t i = 0; i < d.x.size(); ++i)
                data.append(QCPGraphData(d.x[i], d.y[i]));
        } else if (d.role == Role::Upper || d.role == Role::Lower) {
            data = CurveDecimator::envelope(d.x, d.y, low, high, n, d.role == Role::Upper);
        } else {
            data = CurveDecimator::minMax(d.x, d.y, low, high, n);
        }
        d.graph->data()->set(data, true);
    }
}

QString ComparePanel::pointText(const QPointF& pixel) const
{
    constexpr double kReach = 12.0; // pixels
    double best = kReach * kReach;
    const Drawn* found = nullptr;
    std::size_t at = 0;
    const double keyLow = xAxis->pixelToCoord(pixel.x() - kReach), keyHigh = xAxis->pixelToCoord(pixel.x() + kReach);
    for (const Drawn& d : drawn_) {
        if (d.role != Role::Line && d.role != Role::Points)
            continue;
        const auto begin = std::lower_bound(d.x.begin(), d.x.end(), std::min(keyLow, keyHigh));
        const auto end = std::upper_bound(d.x.begin(), d.x.end(), std::max(keyLow, keyHigh));
        for (auto it = begin; it != end; ++it) {
            const std::size_t i = static_cast<std::size_t>(it - d.x.begin());
            const double dx = xAxis->coordToPixel(d.x[i]) - pixel.x();
            const double dy = yAxis->coordToPixel(d.y[i]) - pixel.y();
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                found = &d;
                at = i;
            }
        }
    }
    if (!found)
        return {};
    const PlotSeries& s = series_[static_cast<std::size_t>(found->series)];
    const double x = found->x[at];
    QString xText;
    const auto index = static_cast<long long>(std::llround(x));
    if (metric_ == QLatin1String("grad_by_layer"))
        xText = index >= 0 && index < xLabels_.size() ? xLabels_[static_cast<int>(index)] : tr("layer %1").arg(index);
    else if (RunCurves::isLengthProfile(metric_))
        xText = tr("length %1").arg(index);
    else if (metric_ == QLatin1String("bleu_by_length"))
        xText = tr("sources from %1 words").arg(index);
    else if (metric_ == QLatin1String("forecast") || metric_ == QLatin1String("forecast_error"))
        xText = tr("row %1").arg(index);
    else if (metric_ == QLatin1String("rmse_by_horizon"))
        xText = tr("%n step(s) ahead", "", static_cast<int>(index));
    else if (RunCurves::isProfile(metric_))
        xText = tr("distance %1").arg(index);
    else
        switch (axis_) {
    case CompareAxis::Step: xText = tr("step %1").arg(static_cast<long long>(std::llround(x))); break;
    case CompareAxis::Epoch: xText = tr("epoch %1").arg(QString::number(x, 'f', 2)); break;
    case CompareAxis::WallTime: xText = tr("wall time %1 s").arg(QString::number(x, 'f', 1)); break;
    }
    QString value = QStringLiteral("%1 %2").arg(metricTitle(metric_), numberText(found->y[at]));
    if (at < found->std.size())
        value += tr(" ± %1 (n=%2)").arg(numberText(found->std[at])).arg(found->n[at]);
    return QStringLiteral("%1 · %2\n%3\n%4").arg(s.label, splitTitle(s.split), xText, value);
}

} // namespace attnlab::ui
