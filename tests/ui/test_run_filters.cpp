// The run list's filter language and saved filters, over a real store of known runs: which runs each
// query shows (ids worked out by hand), the errors that name the term at fault, and named filters that
// outlive the panel (QSettings) and select their runs for Compare.
#include "core/store/RunStore.h"
#include "tests/support/StoreFixtures.h"
#include "tests/support/WidgetLookup.h"
#include "ui/runs/RunFilterQuery.h"
#include "ui/runs/RunListPanel.h"
#include "ui/runs/SavedFilters.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace attnlab;
using namespace attnlab::ui;

class TestRunFilters : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    std::unique_ptr<RunStore> store_;
    // ssan+rpr on sst-fine: 48% (tag thesis) and 44% (thesis-quick); lstm on sst-fine 43% (thesis, rnn);
    // essan on sml2010 (RMSE 0.02); a failed cnn run after 7 steps.
    qint64 ssanA_ = 0, ssanB_ = 0, lstm_ = 0, essan_ = 0, cnnFailed_ = 0;

    qint64 add(const char* dataset, const char* model, const char* position, std::uint64_t seed, RunSummary summary,
               std::vector<std::string> tags = {}, const char* name = nullptr)
    {
        const auto id = store_->beginRun(testing::infoFor(dataset, model, position, seed));
        store_->finishRun(id, summary);
        if (!tags.empty())
            store_->setTags(id, tags);
        if (name)
            store_->renameRun(id, name);
        return id;
    }

    QList<qint64> shown(RunListPanel& panel, const QString& filter)
    {
        panel.setFilterText(filter);
        QList<qint64> ids = panel.runIds();
        std::sort(ids.begin(), ids.end());
        return ids;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // Saved filters go to this test's own settings file, never the user's.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("attnlab-test"));
        QCoreApplication::setApplicationName(QStringLiteral("run-filters"));
        store_ = std::make_unique<RunStore>(dir_.filePath("runs.sqlite").toStdString());
        ssanA_ = add("sst-fine", "ssan", "rpr", 1, testing::completed(0.48, 0.47), {"thesis"}, "ssan baseline run");
        ssanB_ = add("sst-fine", "ssan", "rpr", 2, testing::completed(0.44, 0.45), {"thesis-quick"});
        lstm_ = add("sst-fine", "lstm", "none", 1, testing::completed(0.43, 0.42), {"thesis", "rnn"});
        RunSummary regression = testing::completed(0.0, 0.0);
        regression.regression = true;
        regression.testRmse = 0.02;
        regression.bestDevRmse = 0.025;
        essan_ = add("sml2010", "essan", "none", 1, regression);
        RunSummary failed;
        failed.status = RunStatus::Failed;
        failed.steps = 7;
        failed.message = "diverged";
        cnnFailed_ = add("sst-fine", "cnn", "none", 1, failed);
    }

    void queriesParse()
    {
        using F = RunFilterQuery::Field;
        using Op = RunFilterQuery::Op;
        const RunFilterQuery q = RunFilterQuery::parse(QStringLiteral("  SSAN -status:failed test>=45 \"a b\" 12:30 "));
        QVERIFY(q.isValid());
        QCOMPARE(q.terms().size(), std::size_t(5));
        QCOMPARE(q.terms()[0].field, F::Any);
        QCOMPARE(q.terms()[0].text, QStringLiteral("ssan"));
        QCOMPARE(q.terms()[1].field, F::Status);
        QVERIFY(q.terms()[1].negated);
        QCOMPARE(q.terms()[1].text, QStringLiteral("failed"));
        QCOMPARE(q.terms()[2].field, F::Test);
        QCOMPARE(q.terms()[2].op, Op::GreaterOrEqual);
        QCOMPARE(q.terms()[2].number, 45.0);
        QCOMPARE(q.terms()[3].text, QStringLiteral("a b")); // quotes keep the space
        QCOMPARE(q.terms()[4].field, F::Any);               // not a field: no letters before ':'
        QCOMPARE(q.terms()[4].text, QStringLiteral("12:30"));

        const RunFilterQuery unknown = RunFilterQuery::parse(QStringLiteral("ssan modle:lstm"));
        QVERIFY(!unknown.isValid());
        QVERIFY2(unknown.error().contains(QStringLiteral("\"modle\"")) && unknown.error().contains(QStringLiteral("model")),
                 qPrintable(unknown.error()));
        const RunFilterQuery notNumber = RunFilterQuery::parse(QStringLiteral("test>high"));
        QVERIFY(!notNumber.isValid());
        QVERIFY2(notNumber.error().contains(QStringLiteral("not a number")), qPrintable(notNumber.error()));
        QVERIFY(RunFilterQuery::parse(QStringLiteral("   ")).isEmpty());
    }

    void queriesShowTheRunsTheySay()
    {
        RunListPanel panel;
        panel.setRuns(store_->listRuns());
        QCOMPARE(panel.runCount(), 5);
        using L = QList<qint64>;
        QCOMPARE(shown(panel, QStringLiteral("ssan")), (L{ssanA_, ssanB_, essan_})); // a word: essan contains it
        QCOMPARE(shown(panel, QStringLiteral("model=ssan")), (L{ssanA_, ssanB_}));    // exactly
        QCOMPARE(shown(panel, QStringLiteral("model:ssan")), (L{ssanA_, ssanB_, essan_}));
        QCOMPARE(shown(panel, QStringLiteral("test>=44")), (L{ssanA_, ssanB_}));      // percent, as shown
        QCOMPARE(shown(panel, QStringLiteral("test>43 test<48")), (L{ssanB_}));
        QCOMPARE(shown(panel, QStringLiteral("dataset=sml2010 test<0.05")), (L{essan_})); // RMSE
        // A run without a figure matches no comparison, and a negated one takes it back.
        QCOMPARE(shown(panel, QStringLiteral("test<100 dataset=sst-fine")), (L{ssanA_, ssanB_, lstm_}));
        QCOMPARE(shown(panel, QStringLiteral("-test<100")), (L{cnnFailed_}));
        QCOMPARE(shown(panel, QStringLiteral("-status:failed dataset:sst")), (L{ssanA_, ssanB_, lstm_}));
        QCOMPARE(shown(panel, QStringLiteral("status=failed")), (L{cnnFailed_}));
        QCOMPARE(shown(panel, QStringLiteral("tag=thesis")), (L{ssanA_, lstm_}));     // not thesis-quick
        QCOMPARE(shown(panel, QStringLiteral("tag:thesis")), (L{ssanA_, ssanB_, lstm_}));
        QCOMPARE(shown(panel, QStringLiteral("tag!=thesis model=ssan")), (L{ssanB_}));
        QCOMPARE(shown(panel, QStringLiteral("steps<50")), (L{cnnFailed_}));
        QCOMPARE(shown(panel, QStringLiteral("id=%1").arg(lstm_)), (L{lstm_}));
        QCOMPARE(shown(panel, QStringLiteral("name:\"baseline run\"")), (L{ssanA_}));
        QCOMPARE(shown(panel, QStringLiteral("started>=2000-01-01")).size(), 5); // ISO times compare as text
        QCOMPARE(shown(panel, QStringLiteral("started<2000-01-01")).size(), 0);
        QVERIFY(panel.filterError().isEmpty());
        auto* status = child<QLabel>(&panel, "filterStatus");
        QCOMPARE(status->text(), QStringLiteral("0 of 5 runs shown"));

        // A query that is not one lists every run and says which term is wrong.
        QCOMPARE(shown(panel, QStringLiteral("modle=ssan")).size(), 5);
        QVERIFY(panel.filterError().contains(QStringLiteral("modle")));
        QVERIFY(status->text().contains(QStringLiteral("modle")));
        QCOMPARE(shown(panel, QString()).size(), 5);
        QVERIFY(status->isHidden());
    }

    void savedFiltersOutliveThePanelAndSelectTheirRuns()
    {
        SavedFilters().remove(QStringLiteral("thesis SSAN"));
        {
            RunListPanel panel;
            panel.setRuns(store_->listRuns());
            panel.setFilterText(QStringLiteral("model=ssan tag:thesis"));
            panel.saveFilter(QStringLiteral("thesis SSAN"));
            panel.setFilterText(QStringLiteral("status=failed"));
            panel.saveFilter(QStringLiteral("failed"));
        }
        QCOMPARE(SavedFilters().names(), (QStringList{"failed", "thesis SSAN"}));
        QCOMPARE(SavedFilters().query(QStringLiteral("thesis SSAN")), QStringLiteral("model=ssan tag:thesis"));

        // A new panel (as after a restart) offers them in its menu; applying one selects its runs.
        RunListPanel panel;
        panel.setRuns(store_->listRuns());
        QSignalSpy selected(&panel, &RunListPanel::selectionChanged);
        QAction* apply = panel.savedFiltersMenu()->findChild<QAction*>(QStringLiteral("savedFilter:thesis SSAN"));
        QVERIFY(apply);
        apply->trigger();
        QCOMPARE(panel.filterText(), QStringLiteral("model=ssan tag:thesis"));
        QList<qint64> ids = panel.selectedRunIds();
        std::sort(ids.begin(), ids.end());
        QCOMPARE(ids, (QList<qint64>{ssanA_, ssanB_}));
        QVERIFY(!selected.isEmpty());
        QCOMPARE(selected.last().first().value<QList<qint64>>().size(), 2);

        QVERIFY(!panel.applySavedFilter(QStringLiteral("no such filter")));
        // Saving under an existing name replaces it; deleting removes it from settings and menu.
        panel.setFilterText(QStringLiteral("model=lstm"));
        panel.saveFilter(QStringLiteral("failed"));
        QCOMPARE(SavedFilters().query(QStringLiteral("failed")), QStringLiteral("model=lstm"));
        QCOMPARE(SavedFilters().names().size(), 2);
        QVERIFY(panel.deleteSavedFilter(QStringLiteral("failed")));
        QVERIFY(!panel.deleteSavedFilter(QStringLiteral("failed")));
        QCOMPARE(SavedFilters().names(), (QStringList{"thesis SSAN"}));
        QVERIFY(!panel.savedFiltersMenu()->findChild<QAction*>(QStringLiteral("savedFilter:failed")));
    }
};

QTEST_MAIN(TestRunFilters)
#include "test_run_filters.moc"
