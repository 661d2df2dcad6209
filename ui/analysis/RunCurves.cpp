#include "ui/analysis/RunCurves.h"

#include "core/results/BleuByLength.h"
#include "core/results/SeriesForecast.h"
#include "core/store/RunStore.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QSet>

#include <algorithm>

namespace attnlab::ui {
namespace {

const std::vector<CurvePoint> kNone;

QString keyOf(const QString& split, const QString& metric)
{
    return split + QLatin1Char('/') + metric;
}

std::vector<std::vector<CurvePoint>> toCurves(const std::vector<std::vector<std::pair<int, double>>>& series)
{
    std::vector<std::vector<CurvePoint>> curves(series.size());
    for (std::size_t r = 0; r < series.size(); ++r) {
        curves[r].reserve(series[r].size());
        for (const auto& [step, value] : series[r])
            curves[r].push_back({static_cast<double>(step), value});
    }
    return curves;
}

// Each run's last evaluation of split/metric appended to its profile at x; whether any run had one.
bool appendLast(const RunStore& store, const std::vector<std::int64_t>& ids, const char* split, const std::string& metric, double x,
                std::vector<std::vector<CurvePoint>>& into)
{
    const auto byRun = store.curves(ids, split, metric);
    bool found = false;
    for (std::size_t r = 0; r < byRun.size(); ++r)
        if (!byRun[r].empty()) {
            into[r].push_back({x, byRun[r].back().second});
            found = true;
        }
    return found;
}

// A profile over an index (prefix + "0", "1", ... from `first`), one query an index until no run has it; x is the
// index. Empty when no run has the first.
std::vector<std::vector<CurvePoint>> indexedProfile(const RunStore& store, const std::vector<std::int64_t>& ids, const char* split,
                                                    const std::string& prefix, int first)
{
    std::vector<std::vector<CurvePoint>> profile(ids.size());
    int index = first;
    while (appendLast(store, ids, split, prefix + std::to_string(index), index, profile))
        ++index;
    return index == first ? std::vector<std::vector<CurvePoint>>() : profile;
}

} // namespace

const QStringList& RunCurves::metricOrder()
{
    // The gradient's reach by word distance right after macro-F1: in a grid of two columns, under the accuracy.
    static const QStringList order{QStringLiteral("loss"), QStringLiteral("accuracy"), QStringLiteral("macro_f1"),
                                   QStringLiteral("repeat_loss"), QStringLiteral("induction_score"),
                                   QStringLiteral("grad_by_distance"), QStringLiteral("rmse"), QStringLiteral("mae"),
                                   QStringLiteral("mape"), QStringLiteral("forecast"), QStringLiteral("forecast_error"),
                                   QStringLiteral("rmse_by_horizon"), QStringLiteral("bleu"), QStringLiteral("bleu_by_length"),
                                   QStringLiteral("learning_rate"), QStringLiteral("grad_norm"),
                                   QStringLiteral("grad_by_layer"), QStringLiteral("step_ms_by_length"),
                                   QStringLiteral("forward_ms_by_length"), QStringLiteral("memory_by_length")};
    return order;
}

bool RunCurves::isLengthProfile(const QString& metric)
{
    return metric == QLatin1String("step_ms_by_length") || metric == QLatin1String("forward_ms_by_length") ||
           metric == QLatin1String("memory_by_length");
}

bool RunCurves::isProfile(const QString& metric)
{
    return metric == QLatin1String("grad_by_distance") || metric == QLatin1String("grad_by_layer") ||
           metric == QLatin1String("bleu_by_length") || metric == QLatin1String("forecast") ||
           metric == QLatin1String("forecast_error") || metric == QLatin1String("rmse_by_horizon") || isLengthProfile(metric);
}

// Per run with a gradient norm: the layers' norms at its last log step, in the order the trainer wrote them (the
// model's). The layer names are not known in advance, so the run's metrics are read whole: only for runs trained
// with gradient_norms, whose lessons are hundreds of steps.
void RunCurves::loadLayerProfiles(const RunStore& store)
{
    const auto total = curves_.constFind(keyOf(QStringLiteral("train"), QStringLiteral("grad_norm")));
    if (total == curves_.constEnd())
        return;
    std::vector<std::vector<CurvePoint>> profiles(ids_.size());
    bool any = false, same = true;
    QStringList first;
    for (std::size_t r = 0; r < ids_.size(); ++r) {
        if ((*total)[r].empty())
            continue;
        const int last = static_cast<int>((*total)[r].back().x);
        QStringList names;
        for (const auto& m : store.metrics(ids_[r]))
            if (m.step == last && m.split == "train" && m.name.rfind("grad_norm.", 0) == 0) {
                profiles[r].push_back({static_cast<double>(names.size()), m.value});
                names.append(QString::fromStdString(m.name.substr(10)));
            }
        if (names.isEmpty())
            continue;
        if (!any)
            first = names;
        same = same && names == first;
        any = true;
    }
    if (!any)
        return;
    curves_.insert(keyOf(QStringLiteral("train"), QStringLiteral("grad_by_layer")), std::move(profiles));
    layerNames_ = same ? first : QStringList{};
}

// Per run measured by `bench --lengths` (tagged "lengths"): its figures by length, from its characteristics
// ("train_ms.4096"), drawn as train-split profiles with x = the length.
void RunCurves::loadLengthProfiles(const RunStore& store)
{
    const std::vector<std::pair<QString, std::string>> figures = {
        {QStringLiteral("step_ms_by_length"), "train_ms."}, {QStringLiteral("forward_ms_by_length"), "forward_ms."},
        {QStringLiteral("memory_by_length"), "peak_memory."}};
    std::vector<std::vector<std::vector<CurvePoint>>> profiles(figures.size(), std::vector<std::vector<CurvePoint>>(ids_.size()));
    bool any = false;
    for (std::size_t r = 0; r < ids_.size(); ++r) {
        const auto& tags = runs_[r].tags;
        if (std::find(tags.begin(), tags.end(), "lengths") == tags.end())
            continue;
        for (const auto& c : store.characteristics(ids_[r]))
            for (std::size_t f = 0; f < figures.size(); ++f)
                if (c.name.rfind(figures[f].second, 0) == 0) {
                    profiles[f][r].push_back({std::stod(c.name.substr(figures[f].second.size())), c.value});
                    any = true;
                }
        for (auto& figure : profiles)
            std::sort(figure[r].begin(), figure[r].end(), [](const CurvePoint& a, const CurvePoint& b) { return a.x < b.x; });
    }
    if (!any)
        return;
    for (std::size_t f = 0; f < figures.size(); ++f)
        if (std::any_of(profiles[f].begin(), profiles[f].end(), [](const auto& p) { return !p.empty(); }))
            curves_.insert(keyOf(QStringLiteral("train"), figures[f].first), std::move(profiles[f]));
}

// Per time-series run: the test forecast it was stored with (runs trained before forecasts were kept have none).
void RunCurves::loadForecasts(const RunStore& store)
{
    std::vector<std::vector<CurvePoint>> predicted(ids_.size()), errors(ids_.size());
    bool any = false;
    for (std::size_t r = 0; r < ids_.size(); ++r) {
        if (!runs_[r].regression)
            continue;
        const auto stored = store.analysis(ids_[r], "forecast", "test");
        if (!stored)
            continue;
        SeriesForecast f;
        try {
            f = SeriesForecast::fromJson(stored->json);
        } catch (const std::invalid_argument&) {
            continue; // a damaged row draws nothing rather than nonsense
        }
        for (int i = 0; i < f.size(); ++i) {
            const auto at = static_cast<std::size_t>(i);
            predicted[r].push_back({static_cast<double>(f.firstRow + i), f.predicted[at]});
            errors[r].push_back({static_cast<double>(f.firstRow + i), f.predicted[at] - f.actual[at]});
        }
        if (forecastActual_.empty()) {
            for (int i = 0; i < f.size(); ++i)
                forecastActual_.push_back({static_cast<double>(f.firstRow + i), f.actual[static_cast<std::size_t>(i)]});
            forecastTarget_ = QString::fromStdString(f.target);
        }
        if (forecastAttention_.run < 0 && !f.attention.empty())
            forecastAttention_ = {static_cast<int>(r), QString::fromStdString(f.attentionName), f.firstRow, f.window,
                                  std::move(f.attention)};
        any = any || f.size() > 0;
    }
    if (!any)
        return;
    curves_.insert(keyOf(QStringLiteral("test"), QStringLiteral("forecast")), std::move(predicted));
    curves_.insert(keyOf(QStringLiteral("test"), QStringLiteral("forecast_error")), std::move(errors));
}

RunCurves RunCurves::load(const RunStore& store, const QList<qint64>& runIds, const QStringList& alsoMetrics)
{
    RunCurves c;
    std::vector<std::int64_t> ids;
    QSet<qint64> seen;
    for (qint64 id : runIds) {
        if (seen.contains(id))
            continue; // a run selected twice is drawn once
        seen.insert(id);
        if (auto record = store.run(id)) {
            ids.push_back(id);
            c.configs_.push_back(QJsonDocument::fromJson(QByteArray::fromStdString(record->configJson)).object());
            c.runs_.push_back(std::move(*record));
        } else {
            c.missing_.append(id);
        }
    }
    if (ids.empty())
        return c;
    for (const char* split : {"train", "dev", "test"})
        for (const QString& metric : metricOrder() + alsoMetrics) {
            if (isProfile(metric))
                continue;
            auto curves = toCurves(store.curves(ids, split, metric.toStdString()));
            if (std::any_of(curves.begin(), curves.end(), [](const auto& curve) { return !curve.empty(); }))
                c.curves_.insert(keyOf(QLatin1String(split), metric), std::move(curves));
        }
    // The gradient profiles: one query per distance, until no run has one that far (the longest sentence).
    auto profiles = indexedProfile(store, ids, "dev", "grad_by_distance.", 0);
    // Relative to the last word's (distance 0): how much of the signal reaches each distance, comparable across
    // models whose losses (and so whose gradients) differ in size.
    for (auto& profile : profiles)
        if (!profile.empty() && profile.front().value > 0.0) {
            const double nearest = profile.front().value;
            for (CurvePoint& p : profile)
                p.value /= nearest;
        }
    if (!profiles.empty())
        c.curves_.insert(keyOf(QStringLiteral("dev"), QStringLiteral("grad_by_distance")), std::move(profiles));
    // A translation run's test BLEU by source length (x = the bucket's shortest source), one query per bucket.
    std::vector<std::vector<CurvePoint>> byLength(ids.size());
    bool anyLength = false;
    for (const auto& bucket : BleuByLength::defaults())
        anyLength |= appendLast(store, ids, "test", "bleu_by_length." + std::to_string(bucket.low), bucket.low, byLength);
    if (anyLength)
        c.curves_.insert(keyOf(QStringLiteral("test"), QStringLiteral("bleu_by_length")), std::move(byLength));
    // A time-series run several steps ahead: its test RMSE at each step (x = steps ahead), until no run has one.
    if (auto byHorizon = indexedProfile(store, ids, "test", "rmse.", 1); !byHorizon.empty())
        c.curves_.insert(keyOf(QStringLiteral("test"), QStringLiteral("rmse_by_horizon")), std::move(byHorizon));
    c.ids_ = std::move(ids);
    c.loadLayerProfiles(store);
    c.loadLengthProfiles(store);
    c.loadForecasts(store);
    return c;
}

void RunCurves::loadAxis(const RunStore& store, CompareAxis axis)
{
    if (axis == CompareAxis::Epoch && !epochsLoaded_) {
        epochs_ = toCurves(store.curves(ids_, "train", "epoch"));
        epochsLoaded_ = true;
    } else if (axis == CompareAxis::WallTime && !wallSecondsLoaded_) {
        wallSeconds_ = toCurves(store.curves(ids_, "train", "wall_seconds"));
        wallSecondsLoaded_ = true;
    }
}

QStringList RunCurves::metrics() const
{
    QStringList present;
    for (const QString& metric : metricOrder())
        for (const char* split : {"train", "dev", "test"})
            if (has(QLatin1String(split), metric)) {
                present.append(metric);
                break;
            }
    return present;
}

bool RunCurves::has(const QString& split, const QString& metric) const
{
    return curves_.contains(keyOf(split, metric));
}

const std::vector<CurvePoint>& RunCurves::curve(int run, const QString& split, const QString& metric) const
{
    const auto it = curves_.constFind(keyOf(split, metric));
    return it == curves_.constEnd() ? kNone : (*it)[static_cast<std::size_t>(run)];
}

const std::vector<CurvePoint>& RunCurves::axis(int run, CompareAxis axis) const
{
    const auto& all = axis == CompareAxis::Epoch ? epochs_ : wallSeconds_;
    if (axis == CompareAxis::Step || all.empty())
        return kNone;
    return all[static_cast<std::size_t>(run)];
}

QList<qint64> RunCurves::runsWithoutAxis(CompareAxis axis) const
{
    QList<qint64> without;
    if (axis == CompareAxis::Step)
        return without;
    for (int r = 0; r < size(); ++r)
        if (this->axis(r, axis).empty())
            without.append(run(r).id);
    return without;
}

QString RunCurves::configValue(int run, const QString& key) const
{
    const RunRecord& r = this->run(run);
    if (key == QLatin1String("model"))
        return QString::fromStdString(r.model);
    if (key == QLatin1String("position"))
        return QString::fromStdString(r.position);
    if (key == QLatin1String("dataset"))
        return QString::fromStdString(r.dataset);
    if (key == QLatin1String("seed"))
        return QString::number(r.seed);
    const QJsonValue v = configs_[static_cast<std::size_t>(run)].value(key);
    switch (v.type()) {
    case QJsonValue::String: return v.toString();
    case QJsonValue::Double: return QString::number(v.toDouble(), 'g', 12);
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Array: return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object: return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    default: return QStringLiteral("-"); // absent: a run stored before the key existed
    }
}

QStringList RunCurves::differingKeys() const
{
    QStringList keys;
    if (configs_.empty())
        return keys;
    QStringList all;
    for (const QJsonObject& config : configs_)
        for (const QString& key : config.keys())
            if (!all.contains(key))
                all.append(key);
    std::sort(all.begin(), all.end());
    for (const QString& key : all) {
        if (key == QLatin1String("seed"))
            continue;
        const QString first = configValue(0, key);
        for (int r = 1; r < size(); ++r)
            if (configValue(r, key) != first) {
                keys.append(key);
                break;
            }
    }
    return keys;
}

bool RunCurves::datasetsDiffer() const
{
    for (const RunRecord& r : runs_)
        if (r.dataset != runs_.front().dataset)
            return true;
    return false;
}

QString RunCurves::label(int run) const
{
    const RunRecord& r = this->run(run);
    // A benchmark's run goes by the name the benchmark gave it (two of its families may share a model id).
    const bool named = !r.name.empty() && std::find(r.tags.begin(), r.tags.end(), "bench") != r.tags.end();
    QString text = QStringLiteral("#%1 %2").arg(r.id).arg(QString::fromStdString(named ? r.name : r.model));
    if (!named && !r.position.empty() && r.position != "none")
        text += QStringLiteral(" + ") + QString::fromStdString(r.position);
    if (datasetsDiffer())
        text += QStringLiteral(" · ") + QString::fromStdString(r.dataset);
    return text;
}

} // namespace attnlab::ui
