// The attention heatmap of runs trained for the test: ESSAN's heads and pooling, DA-RNN's input attention, and
// token labels legible at a projector's size (Enlarge for the screen-sized map).
#include "core/config/Registry.h"
#include "core/data/DatasetCatalog.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/ComputeDevice.h"
#include "core/training/Trainer.h"
#include "ui/MainWindow.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/TrainingCurvesPlot.h"
#include "ui/runs/RunListPanel.h"
#include "ui/runs/RunTableModel.h"
#include "ui/setup/DatasetStatisticsCache.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/RunReplay.h"
#include "ui/training/TrainingWorker.h"
#include "tests/support/FormDriving.h"
#include "tests/support/RunTableReading.h"
#include "tests/support/StoreFixtures.h"
#include "tests/support/WidgetLookup.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QMessageBox>
#include <QAction>
#include <QApplication>
#include <QItemSelectionModel>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include <algorithm>
#include <cstdio>
#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

class TestHeatmapWindow : public QObject {
    Q_OBJECT
private slots:
    void heatmapShowsPoolingAndInputAttention();
    void heatmapLabelsStayLegibleAtProjectorSize();
};

namespace {

// The last snapshot a real short training run stores.
AttentionSnapshot trainedSnapshot(const std::string& dataset, const std::string& model, int heads)
{
    QTemporaryDir dir;
    RunStore store(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
    TrainConfig c;
    c.dataset = dataset;
    c.model.model = model;
    c.model.position = model == "essan" ? "rpr" : "none";
    c.model.dModel = 16;
    c.model.heads = heads;
    c.model.layers = model == "essan" ? 2 : 1;
    c.steps = 30;
    c.evalEvery = 30;
    c.device = "cpu";
    StoreObserver observer(store);
    CancelToken cancel;
    const RunSummary summary = Trainer(c).run(DatasetCatalog::loadAny(dataset, {}), observer, cancel);
    if (summary.status != RunStatus::Completed)
        qFatal("training %s failed: %s", model.c_str(), summary.message.c_str());
    return *store.latestAttention(observer.runId());
}

} // namespace

// Looked at as a user would: ESSAN's per-head maps and its AttnSeqRep weights over the probe's tokens, and
// DA-RNN's input attention over the named driving series; saved as screenshots.
void TestHeatmapWindow::heatmapShowsPoolingAndInputAttention()
{
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    AttentionHeatmap heatmap;
    QComboBox* mapSelector = child<QComboBox>(&heatmap, "attentionMapSelector");
    const QCPColorMap* colorMap = child<QCPColorMap>(&heatmap, "attentionColorMap");
    QCustomPlot* plot = child<QCustomPlot>(&heatmap, "attentionPlot");
    heatmap.resize(640, 420);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));

    const AttentionSnapshot essan = trainedSnapshot("synthetic-sentiment", "essan", 2);
    heatmap.setSnapshot(essan);
    QCOMPARE(heatmap.viewCount(), 2 * 2 + 1); // 2 layers x 2 heads, then the pooling weights
    mapSelector->setCurrentIndex(heatmap.viewCount() - 1);
    const int tokens = static_cast<int>(essan.tokens.size());
    QCOMPARE(colorMap->data()->keySize(), tokens);
    QCOMPARE(colorMap->data()->valueSize(), 2); // one row, drawn as two identical half-height cells
    double sum = 0;
    for (int k = 0; k < tokens; ++k)
        sum += colorMap->data()->cell(k, 0);
    QVERIFY2(std::abs(sum - 1.0) < 1e-3, qPrintable(QString::number(sum))); // a distribution over the tokens
    QCOMPARE(heatmap.valueLabelCount(), tokens); // each weight printed on its cell
    plot->replot();
    QVERIFY(heatmap.grab().save(shots + QStringLiteral("/heatmap-pooling.png")));

    const AttentionSnapshot darnn = trainedSnapshot("synthetic-lag", "darnn", 1);
    heatmap.setSnapshot(darnn);
    QVERIFY(heatmap.viewCount() >= 2); // temporal attention (pooling) and input attention
    mapSelector->setCurrentIndex(heatmap.viewCount() - 1);
    QCOMPARE(colorMap->data()->keySize(), static_cast<int>(darnn.features.size()));
    QCOMPARE(colorMap->data()->valueSize(), static_cast<int>(darnn.tokens.size()));
    QCOMPARE(heatmap.valueLabelCount(), 0); // a matrix: colour only
    plot->replot();
    QVERIFY(heatmap.grab().save(shots + QStringLiteral("/heatmap-input-attention.png")));
}

// a real SST sentence of 25 tokens in a side-by-side panel at 1280x720 (the map itself about
// 110 px square there) had its key labels run into each other. Now the labels drawn never overlap (a font
// whose line fits its cell, upright keys where a word is wider than its cell, every second label where even
// 7 points do not fit), and Enlarge (or a double click) shows the map at the screen's size, where every one
// of the 25 labels is drawn.
void TestHeatmapWindow::heatmapLabelsStayLegibleAtProjectorSize()
{
    const std::vector<std::string> sentence = {
        "it", "'s", "a", "lovely", "film", "with", "lovely", "performances", "by", "buy", "and", "accorsi",
        "but", "the", "screenplay", "is", "an", "unbelievably", "contrived", "and", "ultimately", "tiresome",
        "affair", "overall", "."};
    AttentionSnapshot snapshot;
    snapshot.step = 100;
    snapshot.tokens = sentence;
    AttentionMap map;
    map.size = static_cast<int>(sentence.size());
    map.weights.assign(static_cast<std::size_t>(map.size * map.size), 1.0f / static_cast<float>(map.size));
    snapshot.maps.push_back(map);
    const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    for (const QSize size : {QSize(340, 250), QSize(620, 420), QSize(1150, 620)}) {
        AttentionHeatmap heatmap;
        heatmap.resize(size);
        heatmap.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        heatmap.setSnapshot(snapshot);
        child<QCustomPlot>(&heatmap, "attentionPlot")->replot();
        heatmap.setSnapshot(snapshot); // laid out once: the cells' real size
        const auto labels = heatmap.tokenLabels();
        const QString where = QStringLiteral("%1x%2: cells %3 x %4 px").arg(size.width()).arg(size.height())
                                  .arg(labels.cellWidth).arg(labels.cellHeight);
        if (size.width() >= 1150) { // the enlarged size: every label
            QCOMPARE(labels.keyStride, 1);
            QCOMPARE(labels.queryStride, 1);
        }
        QVERIFY2(labels.keyFont.pointSizeF() >= 7.0 && labels.queryFont.pointSizeF() >= 7.0, qPrintable(where));
        QVERIFY2(QFontMetrics(labels.queryFont).height() <= labels.cellHeight * labels.queryStride, qPrintable(where));
        const QFontMetrics keys(labels.keyFont);
        if (labels.keyRotation == 0.0) { // across: every (elided) label fits its cell
            for (const auto& token : sentence)
                QVERIFY2(std::min(keys.horizontalAdvance(QString::fromStdString(token)), 9 * keys.averageCharWidth()) + 4 <=
                             labels.cellWidth,
                         qPrintable(where + " " + QString::fromStdString(token)));
        } else { // upright: one line's height per drawn label
            QCOMPARE(labels.keyRotation, 90.0);
            QVERIFY2(keys.height() <= labels.cellWidth * labels.keyStride, qPrintable(where));
        }
        QVERIFY(heatmap.grab().save(shots + QStringLiteral("/heatmap-25-tokens-%1x%2.png").arg(size.width()).arg(size.height())));
        if (size.width() == 340) { // the side-by-side panel: Enlarge opens the map at the screen's size
            auto* button = child<QPushButton>(&heatmap, "attentionEnlargeButton");
            QVERIFY(button->isEnabled());
            QTest::mouseClick(button, Qt::LeftButton);
            auto* large = heatmap.window()->findChild<AttentionHeatmap*>(QStringLiteral("attentionHeatmapEnlarged"));
            QVERIFY(large);
            QVERIFY(QTest::qWaitForWindowExposed(large->window()));
            large->setSnapshot(snapshot);
            QCOMPARE(large->tokenLabels().keyStride, 1);
            QCOMPARE(large->tokenLabels().queryStride, 1);
            QVERIFY(large->grab().save(shots + QStringLiteral("/heatmap-25-tokens-enlarged.png")));
            large->window()->close();
        }
    }
}

QTEST_MAIN(TestHeatmapWindow)
#include "test_heatmap_window.moc"
