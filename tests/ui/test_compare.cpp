// The compare view over a store of known runs: every stored point drawn, TensorBoard's smoothing,
// groups as mean ± std bands (numbers worked out by hand), epochs on x, log y, hover, decimation of
// long curves, and export to PNG / SVG / PDF at the asked size.
#include "core/analysis/CurveSmoothing.h"
#include "core/store/RunStore.h"
#include "tests/support/StoreFixtures.h"
#include "tests/support/WidgetLookup.h"
#include "ui/analysis/ComparePanel.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/CurveDecimator.h"
#include "ui/analysis/ExportDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <qcustomplot.h>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

using Points = std::vector<std::pair<double, double>>;

Points pointsOf(const QCPGraph* graph)
{
    Points points;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        points.emplace_back(it->key, it->value);
    return points;
}

void expectPoints(const QCPGraph* graph, const Points& expected, double tolerance = 0.0)
{
    const Points actual = pointsOf(graph);
    QVERIFY2(actual.size() == expected.size(),
             qPrintable(QString("%1: %2 points, expected %3").arg(graph->objectName()).arg(actual.size()).arg(expected.size())));
    for (std::size_t i = 0; i < actual.size(); ++i) {
        const bool same = tolerance == 0.0 ? actual[i] == expected[i]
                                           : std::abs(actual[i].first - expected[i].first) <= tolerance &&
                                                 std::abs(actual[i].second - expected[i].second) <= tolerance;
        QVERIFY2(same, qPrintable(QString("%1[%2]: (%3, %4), expected (%5, %6)")
                                      .arg(graph->objectName()).arg(i)
                                      .arg(actual[i].first, 0, 'g', 17).arg(actual[i].second, 0, 'g', 17)
                                      .arg(expected[i].first, 0, 'g', 17).arg(expected[i].second, 0, 'g', 17)));
    }
}

QCPGraph* graphIn(ComparePanel* panel, const QString& name)
{
    QCPGraph* found = nullptr;
    for (int i = 0; i < panel->graphCount(); ++i)
        if (panel->graph(i)->objectName() == name) {
            if (found)
                qFatal("two graphs named %s", qPrintable(name));
            found = panel->graph(i);
        }
    return found;
}

QStringList curveGraphNames(ComparePanel* panel)
{
    QStringList names;
    for (int i = 0; i < panel->graphCount(); ++i) {
        const QString name = panel->graph(i)->objectName();
        if (!name.startsWith(QLatin1String("key_")) && !name.startsWith(QLatin1String("legend_")))
            names.append(name);
    }
    names.sort();
    return names;
}

// Width and height of a PNG from its IHDR chunk.
QSize pngSize(const QString& path)
{
    QImage image(path);
    return image.size();
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    std::unique_ptr<RunStore> store_;
    // ssan + rpr seeds 1, 2, 3; lstm seeds 1, 2 (the second stored without epoch logs, as before the
    // trainer logged them, and tested at step 20); an essan regression run on sml2010; a long run.
    qint64 s1_ = 0, s2_ = 0, s3_ = 0, l1_ = 0, l2_ = 0, reg_ = 0, long_ = 0;

    qint64 addRun(const char* model, const char* position, std::uint64_t seed, const std::vector<MetricPoint>& points,
                  const char* dataset = "synthetic-sentiment")
    {
        const auto id = store_->beginRun(testing::infoFor(dataset, model, position, seed));
        store_->appendMetrics(id, points);
        store_->finishRun(id, testing::completed(0.8, 0.8));
        return id;
    }

    std::unique_ptr<CompareView> view(const QList<qint64>& runs)
    {
        auto v = std::make_unique<CompareView>();
        v->resize(1200, 700);
        v->setStore(store_.get());
        v->setRuns(runs);
        return v;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        store_ = std::make_unique<RunStore>(dir_.filePath("runs.sqlite").toStdString());
        // Epochs at every logged step for most runs; s2 logged them at steps 10 and 30 only, so its
        // step 20 is mapped half way (0.5 epochs).
        s1_ = addRun("ssan", "rpr", 1,
                     {{10, "train", "epoch", 0.5}, {10, "train", "wall_seconds", 1.0}, {10, "train", "loss", 0.9},
                      {10, "dev", "accuracy", 0.6}, {20, "train", "epoch", 1.0}, {20, "train", "wall_seconds", 2.0},
                      {20, "train", "loss", 0.6}, {30, "train", "epoch", 1.5}, {30, "train", "wall_seconds", 3.0},
                      {30, "train", "loss", 0.5}, {30, "dev", "accuracy", 0.8}, {30, "test", "accuracy", 0.78}});
        s2_ = addRun("ssan", "rpr", 2,
                     {{10, "train", "epoch", 0.25}, {10, "train", "wall_seconds", 1.5}, {10, "train", "loss", 1.0},
                      {10, "dev", "accuracy", 0.5}, {20, "train", "loss", 0.7}, {30, "train", "epoch", 0.75},
                      {30, "train", "wall_seconds", 4.5}, {30, "train", "loss", 0.4}, {30, "dev", "accuracy", 0.9},
                      {30, "test", "accuracy", 0.85}});
        s3_ = addRun("ssan", "rpr", 3,
                     {{10, "train", "epoch", 0.5}, {10, "train", "loss", 0.8}, {10, "dev", "accuracy", 0.7},
                      {20, "train", "epoch", 1.0}, {20, "train", "loss", 0.5}, {30, "train", "epoch", 1.5},
                      {30, "train", "loss", 0.6}, {30, "dev", "accuracy", 0.7}, {30, "test", "accuracy", 0.72}});
        l1_ = addRun("lstm", "none", 1,
                     {{10, "train", "epoch", 0.5}, {10, "train", "loss", 1.2}, {10, "dev", "accuracy", 0.55},
                      {20, "train", "epoch", 1.0}, {20, "train", "loss", 1.0}, {30, "train", "epoch", 1.5},
                      {30, "train", "loss", 0.8}, {30, "dev", "accuracy", 0.7}, {30, "test", "accuracy", 0.66}});
        l2_ = addRun("lstm", "none", 2,
                     {{10, "train", "loss", 1.1}, {10, "dev", "accuracy", 0.6}, {20, "train", "loss", 0.9},
                      {30, "train", "loss", 0.7}, {30, "dev", "accuracy", 0.75}, {20, "test", "accuracy", 0.7}});
        reg_ = addRun("essan", "rpr", 4,
                      {{5, "train", "loss", 0.3}, {5, "dev", "rmse", 0.0}, {10, "train", "loss", 0.2},
                       {10, "dev", "rmse", 0.5}, {15, "dev", "rmse", 0.25}, {15, "test", "rmse", 0.3}},
                      "sml2010");
        // 20,000 train-loss points: a sawtooth with one deep dip and one spike, for the decimation.
        std::vector<MetricPoint> many;
        for (int step = 1; step <= 20000; ++step) {
            double v = 1.0 + 0.1 * (step % 7);
            if (step == 12345)
                v = -3.0;
            if (step == 777)
                v = 9.0;
            many.push_back({step, "train", "loss", v});
        }
        long_ = addRun("transformer", "sinusoidal", 5, many);
    }

    void oneGraphPerRunPerMetricWithEveryStoredPoint()
    {
        auto v = view({s1_, s2_, l1_});
        QCOMPARE(v->objectName(), QString("compareView"));
        // One panel per metric present, in the fixed order; nothing for metrics no run logged.
        QStringList metrics;
        for (ComparePanel* p : v->panels())
            metrics.append(p->metric());
        QCOMPARE(metrics, (QStringList{"loss", "accuracy"}));
        auto* loss = child<ComparePanel>(v.get(), "panel_loss");
        auto* accuracy = child<ComparePanel>(v.get(), "panel_accuracy");
        QStringList expected{QString("train_r%1").arg(l1_), QString("train_r%1").arg(s1_), QString("train_r%1").arg(s2_)};
        expected.sort();
        QCOMPARE(curveGraphNames(loss), expected);
        expectPoints(graphIn(loss, QString("train_r%1").arg(s1_)), {{10, 0.9}, {20, 0.6}, {30, 0.5}});
        expectPoints(graphIn(loss, QString("train_r%1").arg(s2_)), {{10, 1.0}, {20, 0.7}, {30, 0.4}});
        expectPoints(graphIn(loss, QString("train_r%1").arg(l1_)), {{10, 1.2}, {20, 1.0}, {30, 0.8}});
        // Dev as a curve, test as one point at its step.
        expectPoints(graphIn(accuracy, QString("dev_r%1").arg(s1_)), {{10, 0.6}, {30, 0.8}});
        expectPoints(graphIn(accuracy, QString("test_r%1").arg(s1_)), {{30, 0.78}});
        expectPoints(graphIn(accuracy, QString("test_r%1").arg(l1_)), {{30, 0.66}});
        QCOMPARE(graphIn(accuracy, QString("test_r%1").arg(s2_))->lineStyle(), QCPGraph::lsNone);
        // Each run has its own colour, the same in both panels.
        const QColor c1 = graphIn(loss, QString("train_r%1").arg(s1_))->pen().color();
        QCOMPARE(graphIn(accuracy, QString("dev_r%1").arg(s1_))->pen().color(), c1);
        QVERIFY(graphIn(loss, QString("train_r%1").arg(s2_))->pen().color() != c1);
        // The legend names each run by id, model and position; one dataset, so not the dataset.
        auto* legend = child<QListWidget>(v.get(), "legend");
        QCOMPARE(legend->count(), 3);
        QCOMPARE(legend->item(0)->text(), QString("#%1 ssan + rpr").arg(s1_));
        QCOMPARE(legend->item(2)->text(), QString("#%1 lstm").arg(l1_));
        QVERIFY(child<QLabel>(v.get(), "statusLabel")->text().contains("3 run"));
    }

    // A run recorded with gradient_norms: the total norm is a curve by step; the gradient by word distance a curve
    // by distance, the last evaluation's, divided by its value at distance 0, on a log axis whatever the option.
    void gradientPanelsDrawTheNormAndTheLastProfile()
    {
        const auto g1 = addRun("rnn", "none", 1,
                               {{10, "train", "loss", 0.7}, {10, "train", "grad_norm", 2.5}, {10, "train", "grad_norm.output", 2.0},
                                {10, "dev", "grad_by_distance.0", 2.0}, {10, "dev", "grad_by_distance.1", 1.0},
                                {20, "train", "grad_norm", 1.5}, {20, "dev", "grad_by_distance.0", 4.0},
                                {20, "dev", "grad_by_distance.1", 1.0}, {20, "dev", "grad_by_distance.2", 0.25},
                                {20, "dev", "grad_by_distance.3", 0.0625}, {20, "train", "grad_norm.embedding", 0.5},
                                {20, "train", "grad_norm.output", 1.2}});
        const auto g2 = addRun("gru", "none", 1,
                               {{20, "train", "grad_norm", 0.5}, {20, "dev", "grad_by_distance.0", 0.5},
                                {20, "dev", "grad_by_distance.1", 0.25}});
        auto v = view({g1, g2});
        QStringList metrics;
        for (ComparePanel* p : v->panels())
            metrics.append(p->metric());
        QCOMPARE(metrics, (QStringList{"loss", "grad_by_distance", "grad_norm", "grad_by_layer"}));
        // The layers at the last log step, in the order stored (the model's), named on the x axis.
        auto* layers = child<ComparePanel>(v.get(), "panel_grad_by_layer");
        expectPoints(graphIn(layers, QString("train_r%1").arg(g1)), {{0, 0.5}, {1, 1.2}});
        QVERIFY(!graphIn(layers, QString("train_r%1").arg(g2))); // its total only: no layers stored
        auto* ticker = dynamic_cast<QCPAxisTickerText*>(layers->xAxis->ticker().data());
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0), QString("embedding"));
        QCOMPARE(ticker->ticks().value(1), QString("output"));
        expectPoints(graphIn(child<ComparePanel>(v.get(), "panel_grad_norm"), QString("train_r%1").arg(g1)), {{10, 2.5}, {20, 1.5}});
        auto* profile = child<ComparePanel>(v.get(), "panel_grad_by_distance");
        expectPoints(graphIn(profile, QString("dev_r%1").arg(g1)), {{0, 1.0}, {1, 0.25}, {2, 0.0625}, {3, 0.015625}});
        expectPoints(graphIn(profile, QString("dev_r%1").arg(g2)), {{0, 1.0}, {1, 0.5}});
        QCOMPARE(profile->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(profile->xAxis->label(), QString("distance from the last word (tokens)"));
        QCOMPARE(child<ComparePanel>(v.get(), "panel_grad_norm")->yAxis->scaleType(), QCPAxis::stLinear);
        // Smoothing and the epoch axis leave the profile as it is: its x is no step.
        v->setSmoothing(0.9);
        v->setAxis(CompareAxis::Epoch);
        expectPoints(graphIn(child<ComparePanel>(v.get(), "panel_grad_by_distance"), QString("dev_r%1").arg(g1)),
                     {{0, 1.0}, {1, 0.25}, {2, 0.0625}, {3, 0.015625}});
    }

    // Runs measured by bench --lengths: their figures by length (from the stored characteristics, in length order)
    // as panels with both axes logarithmic, named by the length.
    void lengthBenchmarksDrawLogLog()
    {
        auto bench = [&](const char* model, double slope) {
            const auto id = store_->beginRun(testing::infoFor("random-tokens", model, "sinusoidal", 1));
            std::vector<Characteristic> values = {{"train_slope", slope, ""}};
            for (const int length : {4096, 16, 512}) // stored out of order: drawn by length
                values.insert(values.end(), {{"train_ms." + std::to_string(length), 0.01 * std::pow(length, slope), "ms"},
                                             {"forward_ms." + std::to_string(length), 0.001 * length, "ms"},
                                             {"peak_memory." + std::to_string(length), 0.5 * length, "MiB"}});
            store_->appendCharacteristics(id, values);
            store_->setTags(id, {"bench", "lengths"});
            store_->finishRun(id, testing::completed(0.0, 0.0));
            return id;
        };
        const auto full = bench("transformer", 2.0), local = bench("lstm", 1.0);
        store_->setTags(full, {"lengths"}); // not the benchmark's own: named by its model
        store_->renameRun(local, "Transformer, window 16");
        auto v = view({full, local});
        QStringList metrics;
        for (ComparePanel* p : v->panels())
            metrics.append(p->metric());
        QCOMPARE(metrics, (QStringList{"step_ms_by_length", "forward_ms_by_length", "memory_by_length"}));
        auto* step = child<ComparePanel>(v.get(), "panel_step_ms_by_length");
        expectPoints(graphIn(step, QString("train_r%1").arg(full)), {{16, 0.01 * 256}, {512, 0.01 * 512 * 512}, {4096, 0.01 * 4096.0 * 4096.0}});
        expectPoints(graphIn(step, QString("train_r%1").arg(local)), {{16, 0.16}, {512, 5.12}, {4096, 40.96}});
        QCOMPARE(step->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(step->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(step->xAxis->label(), QString("sentence length (tokens)"));
        QVERIFY(step->xAxis->range().lower > 0.0 && step->xAxis->range().upper > 4096);
        expectPoints(graphIn(child<ComparePanel>(v.get(), "panel_memory_by_length"), QString("train_r%1").arg(local)),
                     {{16, 8}, {512, 256}, {4096, 2048}});
        // A benchmark's run goes by its name in the legend; a run without a name by its model and position.
        QStringList legend;
        for (int i = 0; i < child<QListWidget>(v.get(), "legend")->count(); ++i)
            legend << child<QListWidget>(v.get(), "legend")->item(i)->text();
        QCOMPARE(legend, (QStringList{QString("#%1 transformer + sinusoidal").arg(full), QString("#%1 Transformer, window 16").arg(local)}));
        store_->deleteRuns({full, local});
    }

    // A translation run: dev BLEU by step, and the test BLEU by source length (the buckets' shortest source on x).
    void translationRunsDrawBleuAndBleuByLength()
    {
        const auto t = addRun("bahdanau", "none", 1,
                              {{50, "train", "loss", 2.0}, {50, "dev", "bleu", 30.0}, {100, "dev", "bleu", 60.0},
                               {100, "test", "bleu", 55.0}, {100, "test", "bleu_by_length.1", 90.0},
                               {100, "test", "bleu_by_length.6", 70.5}, {100, "test", "bleu_by_length.16", 20.0}},
                              "synthetic-reverse");
        auto v = view({t});
        QStringList metrics;
        for (ComparePanel* p : v->panels())
            metrics.append(p->metric());
        QCOMPARE(metrics, (QStringList{"loss", "bleu", "bleu_by_length"}));
        expectPoints(graphIn(child<ComparePanel>(v.get(), "panel_bleu"), QString("dev_r%1").arg(t)), {{50, 30.0}, {100, 60.0}});
        auto* byLength = child<ComparePanel>(v.get(), "panel_bleu_by_length");
        expectPoints(graphIn(byLength, QString("test_r%1").arg(t)), {{1, 90.0}, {6, 70.5}, {16, 20.0}});
        QVERIFY(graphIn(byLength, QString("test_r%1").arg(t))->lineStyle() != QCPGraph::lsNone); // a profile: joined, not a test point
        QCOMPARE(byLength->yAxis->scaleType(), QCPAxis::stLinear);
        QCOMPARE(byLength->xAxis->label(), QString("source words (from)"));
        // Seeds grouped by model: the mean of each bucket, not the last bucket alone.
        const auto t2 = addRun("bahdanau", "none", 2,
                               {{100, "test", "bleu_by_length.1", 80.0}, {100, "test", "bleu_by_length.6", 60.5},
                                {100, "test", "bleu_by_length.16", 30.0}},
                               "synthetic-reverse");
        v = view({t, t2});
        v->setGroupBy({QStringLiteral("model")});
        byLength = child<ComparePanel>(v.get(), "panel_bleu_by_length");
        expectPoints(graphIn(byLength, QStringLiteral("test_g0")), {{1, 85.0}, {6, 65.5}, {16, 25.0}});
        store_->deleteRuns({t, t2});
    }

    void panelsFollowTheMetricsPresent()
    {
        auto v = view({s1_, reg_, 987654});
        QStringList metrics;
        for (ComparePanel* p : v->panels())
            metrics.append(p->metric());
        QCOMPARE(metrics, (QStringList{"loss", "accuracy", "rmse"}));
        // Datasets differ: the legend says which.
        QCOMPARE(child<QListWidget>(v.get(), "legend")->item(1)->text(), QString("#%1 essan + rpr · sml2010").arg(reg_));
        QVERIFY(child<QLabel>(v.get(), "statusLabel")->text().contains("987654"));
        // No store, or no runs: empty, and says so.
        v->setStore(nullptr);
        QVERIFY(v->panels().isEmpty());
        QVERIFY(!child<QLabel>(v.get(), "statusLabel")->text().isEmpty());
    }

    void smoothingDrawsTensorBoardsValuesOverTheRawCurve()
    {
        auto v = view({s1_, s2_});
        child<QSlider>(v.get(), "smoothingSlider")->setValue(60);
        QCOMPARE(v->options().smoothing, 0.6);
        auto* loss = child<ComparePanel>(v.get(), "panel_loss");
        // By hand: EMA 0.36, 0.456, 0.4736 over 1 - 0.6^k.
        expectPoints(graphIn(loss, QString("train_r%1").arg(s1_)), {{10, 0.9}, {20, 0.7125}, {30, 0.4736 / 0.784}}, 1e-12);
        const auto smoothed = CurveSmoothing::exponential({1.0, 0.7, 0.4}, 0.6);
        expectPoints(graphIn(loss, QString("train_r%1").arg(s2_)),
                     {{10, smoothed[0]}, {20, smoothed[1]}, {30, smoothed[2]}});
        // The raw curve stays, faint, behind.
        QCPGraph* raw = graphIn(loss, QString("raw_train_r%1").arg(s1_));
        QVERIFY(raw);
        expectPoints(raw, {{10, 0.9}, {20, 0.6}, {30, 0.5}});
        QVERIFY(raw->pen().color().alpha() < 255);
        // The test point is never smoothed.
        expectPoints(graphIn(child<ComparePanel>(v.get(), "panel_accuracy"), QString("test_r%1").arg(s1_)), {{30, 0.78}});
        child<QSlider>(v.get(), "smoothingSlider")->setValue(0);
        QVERIFY(!graphIn(loss, QString("raw_train_r%1").arg(s1_)));
        expectPoints(graphIn(loss, QString("train_r%1").arg(s1_)), {{10, 0.9}, {20, 0.6}, {30, 0.5}});
    }

    void groupingByModelDrawsMeanAndStdBands()
    {
        auto v = view({s1_, l1_, s2_, l2_, s3_});
        // The combo offers the keys that differ (not the seed), and model/position/dataset.
        auto* combo = child<QComboBox>(v.get(), "groupByCombo");
        QVERIFY(combo->findData("model") >= 0);
        QVERIFY(combo->findData("position") >= 0);
        QCOMPARE(combo->findData("seed"), -1);
        auto* edit = child<QLineEdit>(v.get(), "groupByEdit");
        edit->setText("model");
        emit edit->editingFinished();
        QCOMPARE(v->options().groupBy, QStringList{"model"});

        auto* loss = child<ComparePanel>(v.get(), "panel_loss");
        // Groups in the order of their first run: ssan (g0, n=3), lstm (g1, n=2). Nothing per run.
        QCOMPARE(curveGraphNames(loss), (QStringList{"lower_train_g0", "lower_train_g1", "train_g0", "train_g1",
                                                     "upper_train_g0", "upper_train_g1"}));
        // ssan train loss: (0.9, 1.0, 0.8), (0.6, 0.7, 0.5), (0.5, 0.4, 0.6): means 0.9, 0.6, 0.5, std 0.1 each.
        expectPoints(graphIn(loss, "train_g0"), {{10, 0.9}, {20, 0.6}, {30, 0.5}}, 1e-12);
        expectPoints(graphIn(loss, "upper_train_g0"), {{10, 1.0}, {20, 0.7}, {30, 0.6}}, 1e-12);
        expectPoints(graphIn(loss, "lower_train_g0"), {{10, 0.8}, {20, 0.5}, {30, 0.4}}, 1e-12);
        QCOMPARE(graphIn(loss, "upper_train_g0")->channelFillGraph(), graphIn(loss, "lower_train_g0"));
        // lstm: (1.2, 1.1), (1.0, 0.9), (0.8, 0.7): means 1.15, 0.95, 0.75, std 0.1 / sqrt(2).
        const double s = 0.1 / std::sqrt(2.0);
        expectPoints(graphIn(loss, "train_g1"), {{10, 1.15}, {20, 0.95}, {30, 0.75}}, 1e-12);
        expectPoints(graphIn(loss, "upper_train_g1"), {{10, 1.15 + s}, {20, 0.95 + s}, {30, 0.75 + s}}, 1e-12);
        // dev accuracy of ssan: (0.6, 0.5, 0.7) -> 0.6 ± 0.1; (0.8, 0.9, 0.7) -> 0.8 ± 0.1. Test: mean of 3.
        auto* accuracy = child<ComparePanel>(v.get(), "panel_accuracy");
        expectPoints(graphIn(accuracy, "dev_g0"), {{10, 0.6}, {30, 0.8}}, 1e-12);
        expectPoints(graphIn(accuracy, "lower_dev_g0"), {{10, 0.5}, {30, 0.7}}, 1e-12);
        expectPoints(graphIn(accuracy, "test_g0"), {{30, (0.78 + 0.85 + 0.72) / 3}}, 1e-12);
        // lstm's runs were tested at steps 30 and 20: one point, their mean, at the later step.
        expectPoints(graphIn(accuracy, "test_g1"), {{30, 0.68}}, 1e-12);
        // The legend names the group and its size.
        auto* legend = child<QListWidget>(v.get(), "legend");
        QCOMPARE(legend->count(), 2);
        QCOMPARE(legend->item(0)->text(), QString("model=ssan (n=3)"));
        QCOMPARE(legend->item(1)->text(), QString("model=lstm (n=2)"));
        // Back to one curve per run.
        combo->setCurrentIndex(combo->findData(QString()));
        emit combo->activated(combo->currentIndex());
        QVERIFY(v->options().groupBy.isEmpty());
        QVERIFY(graphIn(loss, QString("train_r%1").arg(s1_)));
    }

    void epochAxisRemapsSteps()
    {
        auto v = view({s1_, s2_});
        auto* axis = child<QComboBox>(v.get(), "xAxisCombo");
        axis->setCurrentIndex(axis->findData(static_cast<int>(CompareAxis::Epoch)));
        auto* loss = child<ComparePanel>(v.get(), "panel_loss");
        expectPoints(graphIn(loss, QString("train_r%1").arg(s1_)), {{0.5, 0.9}, {1.0, 0.6}, {1.5, 0.5}});
        // s2 logged epochs at steps 10 and 30 only: step 20 lies half way.
        expectPoints(graphIn(loss, QString("train_r%1").arg(s2_)), {{0.25, 1.0}, {0.5, 0.7}, {0.75, 0.4}});
        expectPoints(graphIn(child<ComparePanel>(v.get(), "panel_accuracy"), QString("dev_r%1").arg(s1_)),
                     {{0.5, 0.6}, {1.5, 0.8}});
        QCOMPARE(loss->xAxis->label(), QString("epoch"));
        QVERIFY(loss->note().isEmpty());
        // Wall time likewise.
        axis->setCurrentIndex(axis->findData(static_cast<int>(CompareAxis::WallTime)));
        expectPoints(graphIn(loss, QString("train_r%1").arg(s2_)), {{1.5, 1.0}, {3.0, 0.7}, {4.5, 0.4}});

        // A run stored without epoch logs: x stays the step, and the panel says why.
        v->setRuns({s1_, l2_});
        v->setAxis(CompareAxis::Epoch);
        loss = child<ComparePanel>(v.get(), "panel_loss");
        expectPoints(graphIn(loss, QString("train_r%1").arg(s1_)), {{10, 0.9}, {20, 0.6}, {30, 0.5}});
        QCOMPARE(loss->xAxis->label(), QString("step"));
        QVERIFY2(loss->note().contains("epoch") && loss->note().contains(QString::number(l2_)), qPrintable(loss->note()));
    }

    void logYSkipsNonPositiveValues()
    {
        auto v = view({reg_});
        child<QCheckBox>(v.get(), "logYCheck")->setChecked(true);
        auto* rmse = child<ComparePanel>(v.get(), "panel_rmse");
        QCOMPARE(rmse->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(!qSharedPointerDynamicCast<QCPAxisTickerLog>(rmse->yAxis->ticker()).isNull());
        expectPoints(graphIn(rmse, QString("dev_r%1").arg(reg_)), {{10, 0.5}, {15, 0.25}}); // 0.0 left out
        child<QCheckBox>(v.get(), "logYCheck")->setChecked(false);
        QCOMPARE(rmse->yAxis->scaleType(), QCPAxis::stLinear);
        expectPoints(graphIn(rmse, QString("dev_r%1").arg(reg_)), {{5, 0.0}, {10, 0.5}, {15, 0.25}});
    }

    void hoverNamesTheNearestPoint()
    {
        auto v = view({s1_, l1_});
        v->show();
        QVERIFY(QTest::qWaitForWindowExposed(v.get()));
        auto* loss = child<ComparePanel>(v.get(), "panel_loss");
        loss->replot();
        const QPointF at(loss->xAxis->coordToPixel(20) + 3, loss->yAxis->coordToPixel(0.6) - 2);
        const QString text = loss->pointText(at);
        QVERIFY2(text.contains(QString("#%1 ssan + rpr").arg(s1_)) && text.contains("step 20") && text.contains("0.6"),
                 qPrintable(text));
        QVERIFY(loss->pointText(QPointF(loss->xAxis->coordToPixel(15), loss->yAxis->coordToPixel(2.0))).isEmpty());
    }

    void decimatorKeepsEveryColumnsExtremes()
    {
        std::vector<double> x, y;
        for (int i = 0; i < 1000; ++i) {
            x.push_back(i);
            y.push_back(std::sin(i * 0.37) + (i == 500 ? 5.0 : 0.0));
        }
        const auto few = CurveDecimator::minMax(x, y, 0, 999, 10);
        QVERIFY(few.size() <= 40 && few.size() >= 20);
        // Per column of 99.9 x units, the lowest and the highest point are among the drawn ones.
        for (int c = 0; c < 10; ++c) {
            double low = 1e9, high = -1e9;
            for (int i = 0; i < 1000; ++i)
                if (static_cast<int>(i / 99.9) == c) {
                    low = std::min(low, y[i]);
                    high = std::max(high, y[i]);
                }
            bool hasLow = false, hasHigh = false;
            for (const QCPGraphData& d : few)
                if (static_cast<int>(d.key / 99.9) == c) {
                    hasLow = hasLow || d.value == low;
                    hasHigh = hasHigh || d.value == high;
                }
            QVERIFY2(hasLow && hasHigh, qPrintable(QString("column %1").arg(c)));
        }
        // Few points: all of them, untouched.
        QCOMPARE(CurveDecimator::minMax({0, 1, 2}, {5, 6, 7}, 0, 2, 10).size(), 3);
        // A zoomed range keeps one point beyond each edge so the line reaches it.
        const auto zoomed = CurveDecimator::minMax(x, y, 100.5, 110.5, 500);
        QCOMPARE(zoomed.first().key, 100.0);
        QCOMPARE(zoomed.last().key, 111.0);
    }

    void longCurvesAreDecimatedForDrawingOnly()
    {
        auto v = view({long_});
        v->show();
        QVERIFY(QTest::qWaitForWindowExposed(v.get()));
        auto* loss = child<ComparePanel>(v.get(), "panel_loss");
        loss->replot();
        QCPGraph* g = graphIn(loss, QString("train_r%1").arg(long_));
        const int columns = loss->axisRect()->width();
        QVERIFY2(g->data()->size() <= 4 * columns + 8, qPrintable(QString::number(g->data()->size())));
        QVERIFY(loss->isDecimated());
        bool range = false;
        const QCPRange values = g->data()->valueRange(range);
        QCOMPARE(values.lower, -3.0); // the dip and the spike survive
        QCOMPARE(values.upper, 9.0);
        // Hover reads the full data: the exact step, not a neighbour.
        const QString text = loss->pointText(QPointF(loss->xAxis->coordToPixel(12345), loss->yAxis->coordToPixel(-3.0)));
        QVERIFY2(text.contains("step 12345") && text.contains("-3"), qPrintable(text));
        v->setSampling(DisplaySampling::None);
        QCOMPARE(g->data()->size(), 20000);
        QVERIFY(!loss->isDecimated());
    }

    void exportsPngSvgAndPdf()
    {
        auto v = view({s1_, s2_, l1_});
        v->setGroupBy({"model"});
        const QString png = dir_.filePath("all.png");
        QCOMPARE(v->exportTo(png, 800, 500, 96), QString());
        QCOMPARE(pngSize(png), QSize(800, 500));
        // 300 dpi: the asked pixels, and the resolution recorded in the file.
        const QString sharp = dir_.filePath("sharp.png");
        QCOMPARE(v->exportTo(sharp, 1500, 900, 300, child<ComparePanel>(v.get(), "panel_loss")), QString());
        QImage image(sharp);
        QCOMPARE(image.size(), QSize(1500, 900));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
        // Not a blank page: some pixels are coloured.
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                coloured += image.pixelColor(x, y).saturation() > 80 ? 1 : 0;
        QVERIFY2(coloured > 50, qPrintable(QString::number(coloured)));

        const QString svg = dir_.filePath("all.svg");
        QCOMPARE(v->exportTo(svg, 800, 500, 96), QString());
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svgFile);
        bool sawSvg = false, sawText = false;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                sawSvg = sawSvg || xml.name() == QLatin1String("svg");
                sawText = sawText || xml.name() == QLatin1String("text");
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(sawSvg);
        QVERIFY(sawText); // vector text, not a picture of it

        const QString pdf = dir_.filePath("all.pdf");
        QCOMPARE(v->exportTo(pdf, 800, 500, 96), QString());
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QCOMPARE(pdfFile.read(5), QByteArray("%PDF-"));
        const QString pdftoppm = QStandardPaths::findExecutable("pdftoppm");
        if (!pdftoppm.isEmpty()) {
            QProcess p;
            p.start(pdftoppm, {"-r", "96", "-png", "-singlefile", pdf, dir_.filePath("rendered")});
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 0);
            const QSize rendered = pngSize(dir_.filePath("rendered.png"));
            QVERIFY2(std::abs(rendered.width() - 800) <= 2 && std::abs(rendered.height() - 500) <= 2,
                     qPrintable(QString("%1 x %2").arg(rendered.width()).arg(rendered.height())));
        } else {
            qInfo("pdftoppm not installed (poppler-utils): the PDF was not rendered");
        }
        // A name without a known extension is refused in words.
        QVERIFY(v->exportTo(dir_.filePath("all.bmp"), 800, 500, 96).contains(".png"));
    }

    void exportDialogKeepsNameAndFormatTogether()
    {
        ExportDialog dialog(dir_.filePath("plots.png"));
        auto* format = child<QComboBox>(&dialog, "exportFormatCombo");
        format->setCurrentIndex(format->findData(static_cast<int>(PlotExporter::Format::Pdf)));
        QCOMPARE(dialog.format(), PlotExporter::Format::Pdf);
        QCOMPARE(dialog.path(), dir_.filePath("plots.pdf"));
        child<QSpinBox>(&dialog, "exportDpiSpin")->setValue(300);
        QCOMPARE(dialog.dpi(), 300);
    }
};

QTEST_MAIN(TestCompare)
#include "test_compare.moc"
