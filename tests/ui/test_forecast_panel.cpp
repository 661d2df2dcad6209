// The forecast in Compare, from real runs: time-series runs trained through the trainer and stored as the window
// stores them, then drawn against the real series: every prediction where the store has it, a group's mean ± std
// band over its seeds worked out here from the kept values, the attention strip under the time axis holding the
// run's weights, and `runs plot --metric test_forecast`'s renderer drawing the same panel to a file.
#include "core/data/DatasetCatalog.h"
#include "core/results/SeriesForecast.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/Trainer.h"
#include "tests/support/WidgetLookup.h"
#include "ui/analysis/ComparePanel.h"
#include "ui/analysis/CompareView.h"

#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QCPGraph* graphIn(QCustomPlot* plot, const QString& name)
{
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->objectName() == name)
            return plot->graph(i);
    qFatal("no graph %s in %s", qPrintable(name), qPrintable(plot->objectName()));
    return nullptr;
}

double valueAt(const QCPGraph* graph, double key)
{
    const auto it = graph->data()->findBegin(key, false);
    if (it == graph->data()->constEnd() || it->key != key)
        qFatal("%s has no point at %g", qPrintable(graph->objectName()), key);
    return it->value;
}

} // namespace

class TestForecastPanel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<RunStore> store_;
    SeriesDataset data_;
    std::vector<qint64> darnn_;
    qint64 persistence_ = 0;

    qint64 train(const std::string& model, std::uint64_t seed)
    {
        TrainConfig config;
        config.dataset = "synthetic-lag";
        config.model.model = model;
        config.model.position = "none";
        config.model.dModel = 16;
        config.model.drivers = data_.drivers();
        config.model.window = data_.window;
        config.seed = seed;
        config.steps = 30;
        config.evalEvery = 30;
        config.device = "cpu";
        config.threads = 1;
        StoreObserver observer(*store_);
        CancelToken cancel;
        const auto summary = Trainer(config).run(data_, observer, cancel);
        if (summary.status != RunStatus::Completed)
            qFatal("%s did not train: %s", model.c_str(), summary.message.c_str());
        observer.flush();
        return observer.runId();
    }

    SeriesForecast kept(qint64 run) const
    {
        return SeriesForecast::fromJson(store_->analysis(run, "forecast", "test")->json);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        store_ = std::make_unique<RunStore>(dir_.filePath("runs.sqlite").toStdString());
        DatasetOptions options;
        options.seriesLength = 300;
        data_ = DatasetCatalog::loadSeries("synthetic-lag", options);
        darnn_ = {train("darnn", 1), train("darnn", 2)};
        persistence_ = train("persistence", 1);
    }

    void eachRunsForecastAgainstTheRealSeries()
    {
        CompareView v;
        v.resize(1200, 800);
        v.setStore(store_.get());
        v.setRuns({darnn_[0], persistence_});
        auto* panel = child<ComparePanel>(&v, "panel_forecast");
        const auto first = kept(darnn_[0]), last = kept(persistence_);
        QCOMPARE(first.size(), static_cast<int>(data_.test.size()));
        const QCPGraph* real = graphIn(panel, "actual");
        const QCPGraph* mine = graphIn(panel, QString("test_r%1").arg(darnn_[0]));
        const QCPGraph* theirs = graphIn(panel, QString("test_r%1").arg(persistence_));
        QCOMPARE(real->data()->size(), first.size()); // a few hundred points: none thinned at 1200 px
        for (int i = 0; i < first.size(); ++i) {
            const double x = first.firstRow + i;
            QCOMPARE(valueAt(real, x), first.actual[static_cast<std::size_t>(i)]);
            QCOMPARE(valueAt(mine, x), first.predicted[static_cast<std::size_t>(i)]);
            QCOMPARE(valueAt(theirs, x), last.predicted[static_cast<std::size_t>(i)]);
        }
        QCOMPARE(panel->xAxis->label(), QString("row of the series"));
        QCOMPARE(panel->yAxis->scaleType(), QCPAxis::stLinear);
        // The strip: DA-RNN's temporal attention (persistence has none), the step just before each row at the bottom.
        QCPColorMap* strip = panel->attentionStrip();
        QVERIFY(strip);
        QCOMPARE(strip->data()->keySize(), first.size());
        QCOMPARE(strip->data()->valueSize(), data_.window);
        for (int i : {0, first.size() / 2, first.size() - 1})
            for (int t = 0; t < data_.window; ++t)
                QCOMPARE(strip->data()->cell(i, data_.window - 1 - t), static_cast<double>(first.attention[static_cast<std::size_t>(i)][static_cast<std::size_t>(t)]));
        auto* caption = panel->findChild<QCPTextElement*>("attentionCaption");
        QVERIFY(caption);
        QVERIFY2(caption->text().startsWith(QString("temporal attention of #%1").arg(darnn_[0])), qPrintable(caption->text()));
        // The error panel: the prediction less the real value, row by row.
        const QCPGraph* error = graphIn(child<ComparePanel>(&v, "panel_forecast_error"), QString("test_r%1").arg(darnn_[0]));
        for (int i : {0, first.size() - 1})
            QCOMPARE(valueAt(error, first.firstRow + i), first.predicted[static_cast<std::size_t>(i)] - first.actual[static_cast<std::size_t>(i)]);
        // Zooming the plot moves the strip with it.
        panel->xAxis->setRange(first.firstRow + 10, first.firstRow + 50);
        QCOMPARE(strip->keyAxis()->range().lower, first.firstRow + 10.0);
        // Without a run that has attention, no strip.
        v.setRuns({persistence_});
        QVERIFY(!child<ComparePanel>(&v, "panel_forecast")->attentionStrip());
    }

    void seedsOfARepeatMakeABand()
    {
        CompareView v;
        v.resize(1200, 800);
        v.setStore(store_.get());
        v.setRuns({darnn_[0], darnn_[1]});
        v.setGroupBy({QStringLiteral("model")});
        auto* panel = child<ComparePanel>(&v, "panel_forecast");
        const auto a = kept(darnn_[0]), b = kept(darnn_[1]);
        const QCPGraph* mean = graphIn(panel, "test_g0");
        const QCPGraph* upper = graphIn(panel, "upper_test_g0");
        for (int i : {0, 7, a.size() - 1}) {
            const double x = a.firstRow + i, p = a.predicted[static_cast<std::size_t>(i)], q = b.predicted[static_cast<std::size_t>(i)];
            const double m = (p + q) / 2, sd = std::abs(p - q) / std::sqrt(2.0); // sample std of two values
            QVERIFY(std::abs(valueAt(mean, x) - m) < 1e-9 * std::max(1.0, std::abs(m)));
            QVERIFY(std::abs(valueAt(upper, x) - (m + sd)) < 1e-9 * std::max(1.0, std::abs(m)));
        }
        QVERIFY(graphIn(panel, "actual")->data()->size() > 0);
    }
};

QTEST_MAIN(TestForecastPanel)
#include "test_forecast_panel.moc"
