// In the window: the Explorer's Gates tab over a real LSTM run in a real store, the strip the engine computed (its
// means and one unit's values), every layer and direction listed, and a model without gates told so in words.
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "tests/support/ExplorerRuns.h"
#include "tests/support/WidgetLookup.h"
#include "ui/explorer/ExplorerView.h"
#include "ui/explorer/GateStripView.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <qcustomplot.h>

#include <cmath>

using namespace attnlab;
using namespace attnlab::testing;
using namespace attnlab::ui;

class TestExplorerGates : public QObject {
    Q_OBJECT
private slots:
    void gatesOfTheTypedSentence()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        const qint64 lstm = trainInto(db, "bilstm", "synthetic-sentiment", true, {}, 60);
        const qint64 ssan = trainInto(db, "ssan", "synthetic-sentiment", true, {}, 12);
        RunStore store(db.toStdString());
        const auto record = *store.run(lstm);
        const ModelExplainer engine(*ModelExplainer::choose(store.checkpoints(lstm), record.bestStep));

        ExplorerView view;
        view.setStore(&store);
        view.resize(1280, 680); // the Explorer tab's size in a 1280x720 window
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRun(lstm);
        QVERIFY(settle(view));
        auto* input = child<QLineEdit>(&view, "explorerInput");
        input->clear();
        QTest::keyClicks(input, QStringLiteral("the plot is not good but the acting is really charming"));
        QVERIFY(QTest::qWaitFor(
            [&] { return !view.isBusy() && view.explanation() && view.explanation()->tokens.size() == 11; }, 20000));
        auto* tabs = child<QTabWidget>(&view, "explorerLowerTabs");
        auto* gates = view.findChild<GateStripView*>();
        QVERIFY(gates);
        tabs->setCurrentWidget(gates);
        const auto expected = engine.explain(view.explanation()->text).gates;
        QCOMPARE(expected.strips.size(), std::size_t {2});
        QCOMPARE(gates->stripCount(), 2); // one layer, forward and backward
        auto* strips = child<QComboBox>(gates, "gateStripCombo");
        QCOMPARE(strips->count(), 2);
        QVERIFY(child<QCustomPlot>(gates, "gatePlot")->isVisible());
        const auto& forward = expected.strips[0];
        const int forget = forward.gateIndex("forget");
        for (int t = 0; t < forward.tokens; ++t)
            QVERIFY(std::abs(gates->shownValue(forget, t) -
                             forward.meanOverUnits(forget)[static_cast<std::size_t>(t)]) < 1e-6);
        auto* units = child<QComboBox>(gates, "gateUnitCombo");
        QCOMPARE(units->count(), forward.units + 1); // the mean, then each unit
        units->setCurrentIndex(3); // unit 3
        QCOMPARE(gates->shownValue(forget, 1), static_cast<double>(forward.at(forget, 1, 2)));
        strips->setCurrentIndex(1);
        const int cell = expected.strips[1].gateIndex("cell");
        QCOMPARE(gates->shownValue(cell, 0), static_cast<double>(expected.strips[1].at(cell, 0, 2)));
        QTest::qWait(100);
        QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots"));
        QVERIFY(view.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/explorer-gates-1280x680.png")));

        view.setRun(ssan);
        QVERIFY(QTest::qWaitFor([&] { return !view.isBusy(); }, 20000));
        input->setText(QStringLiteral("the plot is good"));
        QVERIFY(QTest::qWaitFor(
            [&] { return !view.isBusy() && view.explanation() && view.explanation()->tokens.size() == 4; }, 20000));
        QCOMPARE(gates->stripCount(), 0);
        QVERIFY(!child<QCustomPlot>(gates, "gatePlot")->isVisible());
        QVERIFY(child<QLabel>(gates, "gatePlaceholder")->text().contains(QStringLiteral("has no gates")));
    }
};

QTEST_MAIN(TestExplorerGates)
#include "test_explorer_gates.moc"
