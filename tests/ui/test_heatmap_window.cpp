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
#include "ui/plots/AttentionText.h"
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
    void textShadedByTheChosenToken();
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

// The text under the map: every token written out (a space, a line end and a tab visible), shaded by the chosen
// query's row over its largest weight, the keys a causal query cannot see greyed; a click on a cell chooses its
// query there and outlines its row; the cell under the mouse is named and its labels drawn whatever the stride.
void TestHeatmapWindow::textShadedByTheChosenToken()
{
    AttentionSnapshot snapshot;
    snapshot.step = 7;
    snapshot.tokens = {"To", " ", "be", "\n", "\t"};
    AttentionMap map;
    map.size = 5;
    // A causal head, each row summing to 1: row 2 ("be") gives "To" 0.5, " " 0.125, itself 0.375.
    map.weights = {1.0f,  0.0f,  0.0f,   0.0f, 0.0f, //
                   0.25f, 0.75f, 0.0f,   0.0f, 0.0f, //
                   0.5f,  0.125f, 0.375f, 0.0f, 0.0f, //
                   0.1f,  0.2f,  0.3f,   0.4f, 0.0f, //
                   0.2f,  0.2f,  0.2f,   0.2f, 0.2f};
    snapshot.maps.push_back(map);
    AttentionHeatmap heatmap;
    heatmap.resize(640, 520);
    heatmap.setTextShown(true);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    heatmap.setSnapshot(snapshot);
    auto* plot = child<QCustomPlot>(&heatmap, "attentionPlot");
    plot->replot();
    AttentionText* text = heatmap.text();
    QVERIFY(text->isVisible());
    QVERIFY(text->selfAttention());
    QCOMPARE(text->keyText(1), QStringLiteral("␣"));
    QCOMPARE(text->keyText(3), QStringLiteral("↵"));
    QCOMPARE(text->keyText(4), QStringLiteral("→"));
    // A new text starts on its last token: row 4's even weights, all at the top of the scale.
    QCOMPARE(text->chosenQuery(), 4);
    QCOMPARE(text->shades(), (std::vector<double>{1.0, 1.0, 1.0, 1.0, 1.0}));
    QCOMPARE(heatmap.outlinedRow(), 4);
    // A click on the cell (query "be", key "To") chooses row 2: 0.5 is the largest, the keys after "be" unseen.
    const QPoint cell(static_cast<int>(plot->xAxis->coordToPixel(0)), static_cast<int>(plot->yAxis->coordToPixel(2)));
    QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, cell);
    QCOMPARE(text->chosenQuery(), 2);
    QCOMPARE(heatmap.outlinedRow(), 2);
    QCOMPARE(text->shades(), (std::vector<double>{1.0, 0.25, 0.75, -1.0, -1.0}));
    QVERIFY2(text->caption().contains(QStringLiteral("“be” (token 3; the darkest 0.500)")), qPrintable(text->caption()));
    QCOMPARE(heatmap.cellText(2, 0), QStringLiteral("query 3 “be” → key (attended token) 1 “To”: %1")
                                         .arg(QLocale().toString(0.5, 'f', 3)));
    QCOMPARE(heatmap.cellText(3, 1), QStringLiteral("query 4 “↵” → key (attended token) 2 “␣”: %1")
                                         .arg(QLocale().toString(0.2, 'f', 3)));
    // Hovering the cell outlines its row and column (the layout may have moved: the caption is longer now).
    QTest::qWait(20);
    plot->replot();
    QTest::mouseMove(plot, QPoint(static_cast<int>(plot->xAxis->coordToPixel(0)), static_cast<int>(plot->yAxis->coordToPixel(2))));
    QCOMPARE(heatmap.hoveredCell(), std::make_pair(2, 0));
    // Another map keeps the choice: the same text.
    AttentionMap second = map;
    second.head = 1;
    std::swap(second.weights[10], second.weights[11]); // row 2: " " 0.5, "To" 0.125
    snapshot.maps.push_back(second);
    heatmap.setSnapshot(snapshot);
    heatmap.showView(1);
    QCOMPARE(text->chosenQuery(), 2);
    QCOMPARE(text->shades(), (std::vector<double>{0.25, 1.0, 0.75, -1.0, -1.0}));
    // Pooling: one row, no query to choose.
    AttentionSnapshot pooled;
    pooled.step = 3;
    pooled.tokens = {"good", "film"};
    pooled.pooling = {0.8f, 0.2f};
    heatmap.setSnapshot(pooled);
    QCOMPARE(text->shades(), (std::vector<double>{1.0, 0.25}));
    QVERIFY(!text->selfAttention());
    QCOMPARE(heatmap.outlinedRow(), -1);
    // A 64-character context: labels thinned on the axes, the hovered one always drawn.
    AttentionSnapshot chars;
    chars.step = 1;
    AttentionMap wide;
    wide.size = 64;
    for (int i = 0; i < 64; ++i)
        chars.tokens.push_back(std::string(1, static_cast<char>('a' + i % 26)));
    wide.weights.assign(64 * 64, 1.0f / 64.0f);
    chars.maps.push_back(wide);
    heatmap.resize(420, 380);
    heatmap.setSnapshot(chars);
    plot->replot();
    heatmap.setSnapshot(chars);
    QVERIFY2(heatmap.tokenLabels().queryStride > 1, "a 64-token map in a small panel thins its labels");
    const int odd = heatmap.tokenLabels().queryStride + 1; // not on the stride
    heatmap.hoverCell(odd, odd);
    auto* rowTicker = dynamic_cast<QCPAxisTickerText*>(plot->yAxis->ticker().data());
    QVERIFY(rowTicker);
    QVERIFY(rowTicker->ticks().contains(static_cast<double>(odd)));
    QCOMPARE(rowTicker->ticks().value(static_cast<double>(odd)), QString::fromStdString(chars.tokens[static_cast<std::size_t>(odd)]));
    QVERIFY(text->heightForWidth(400) > text->heightForWidth(4000)); // wrapped like a paragraph
}

QTEST_MAIN(TestHeatmapWindow)
#include "test_heatmap_window.moc"
