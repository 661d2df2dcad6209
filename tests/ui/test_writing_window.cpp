// A language model in the window, driven as a student would: a GPT trains on the repeated sequences from the
// designer, the Training tab shows what it wrote at its last evaluation, and the Explorer's writing view opens its
// model: the next token's bars equal the engine's probabilities (TextGenerator on the same checkpoint), temperature
// and top-k change the drawn-from bars at once, Step appends one token and shows its attention over the text.
#include "core/config/SamplingSettings.h"
#include "core/data/LanguageModelText.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/training/TextGenerator.h"
#include "ui/MainWindow.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/WritingExplorer.h"
#include "ui/setup/SetupPanel.h"
#include "tests/support/FormDriving.h"
#include "tests/support/WidgetLookup.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <qcustomplot.h>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

std::vector<double> barValues(QCustomPlot* plot, int which)
{
    std::vector<double> out;
    auto* bars = qobject_cast<QCPBars*>(plot->plottable(which));
    if (!bars)
        return out;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        out.push_back(it->value);
    return out;
}

} // namespace

class TestWritingWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Multi30k's sentences from the designer: its Language and Tokens rows (not the translation's two languages),
    // and the configuration they make, as ▶ Train would start it.
    void multi30kSentencesFromTheDesigner()
    {
        QTemporaryDir dir;
        MainWindow window(dir.filePath(QStringLiteral("runs.sqlite")));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        choose(child<QComboBox>(&window, "datasetCombo"), "multi30k-lm");
        choose(child<QComboBox>(&window, "modelCombo"), "ngram");
        QVERIFY(child<QComboBox>(&window, "lmLanguageCombo")->isVisibleTo(&window));
        QVERIFY(child<QComboBox>(&window, "lmUnitCombo")->isVisibleTo(&window));
        QVERIFY(!child<QComboBox>(&window, "sourceLanguageCombo")->isVisibleTo(&window));
        choose(child<QComboBox>(&window, "lmLanguageCombo"), "fr");
        choose(child<QComboBox>(&window, "lmUnitCombo"), "words");
        const TrainConfig config = child<SetupPanel>(&window, "setupPanel")->config();
        QCOMPARE(QString::fromStdString(config.dataset), QStringLiteral("multi30k-lm"));
        QCOMPARE(QString::fromStdString(config.targetLanguage), QStringLiteral("fr"));
        QCOMPARE(QString::fromStdString(config.lmUnit), QStringLiteral("words"));
        QVERIFY2(config.validate().empty(), config.validate().c_str());
        // Word pieces: the unit, the SentencePiece kind and its size from one row; the translation's row stays hidden.
        QVERIFY(!child<QSpinBox>(&window, "lmPiecesSpin")->isEnabled());
        choose(child<QComboBox>(&window, "lmUnitCombo"), "pieces-unigram");
        QVERIFY(child<QSpinBox>(&window, "lmPiecesSpin")->isEnabled());
        QVERIFY(!child<QComboBox>(&window, "subwordsCombo")->isVisibleTo(&window));
        child<QSpinBox>(&window, "lmPiecesSpin")->setValue(3000);
        const TrainConfig pieces = child<SetupPanel>(&window, "setupPanel")->config();
        QCOMPARE(QString::fromStdString(pieces.lmUnit), QStringLiteral("pieces"));
        QCOMPARE(QString::fromStdString(pieces.subwords), QStringLiteral("unigram"));
        QCOMPARE(pieces.subwordVocabulary, 3000);
        QVERIFY2(pieces.validate().empty(), pieces.validate().c_str());
        // Tiny Shakespeare has neither row: its characters and its language are the dataset's own.
        choose(child<QComboBox>(&window, "datasetCombo"), "tinyshakespeare");
        QVERIFY(!child<QComboBox>(&window, "lmLanguageCombo")->isVisibleTo(&window));
        QVERIFY(!child<QComboBox>(&window, "lmUnitCombo")->isVisibleTo(&window));
    }

    void aLanguageModelTrainsAndWritesInTheWindow()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        MainWindow window(db);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        choose(child<QComboBox>(&window, "datasetCombo"), "synthetic-repeat");
        choose(child<QComboBox>(&window, "modelCombo"), "gpt");
        QVERIFY(child<QSpinBox>(&window, "contextSpin")->isVisibleTo(&window)); // the language model's rows
        QVERIFY(!child<QSpinBox>(&window, "orderSpin")->isVisibleTo(&window)); // the n-gram's are not a GPT's
        child<QSpinBox>(&window, "dModelSpin")->setValue(16);
        child<QSpinBox>(&window, "layersSpin")->setValue(2);
        child<QSpinBox>(&window, "headsSpin")->setValue(2);
        child<QSpinBox>(&window, "contextSpin")->setValue(32);
        child<QSpinBox>(&window, "stepsSpin")->setValue(40);
        child<QSpinBox>(&window, "evalEverySpin")->setValue(20);
        child<QSpinBox>(&window, "batchSizeSpin")->setValue(16);
        child<QSpinBox>(&window, "seedSpin")->setValue(1);
        choose(child<QComboBox>(&window, "deviceCombo"), "cpu");
        QTest::mouseClick(child<QPushButton>(&window, "trainButton"), Qt::LeftButton);
        QVERIFY(window.isTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 240000);

        RunStore store(db.toStdString());
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), std::size_t(1));
        QVERIFY2(runs.front().status == RunStatus::Completed, runs.front().message.c_str());
        QVERIFY(runs.front().summary().languageModel);
        // The Training tab: the sample of the last evaluation under the map.
        auto* sample = child<QPlainTextEdit>(&window, "trainingSample");
        QTRY_VERIFY_WITH_TIMEOUT(sample->isVisibleTo(&window), 10000);
        const auto stored = store.latestAttention(runs.front().id);
        QVERIFY(stored && !stored->sample.empty());
        QVERIFY2(sample->toPlainText().endsWith(QString::fromStdString(stored->sample)), qPrintable(sample->toPlainText()));
        QVERIFY(sample->toPlainText().contains(QStringLiteral("step 40")));

        // The Explorer: the writing view, its bars the engine's.
        auto* tabs = child<QTabWidget>(&window, "workspaceTabs");
        tabs->setCurrentWidget(child<QWidget>(&window, "explorerScroll"));
        auto* writing = child<WritingExplorer>(&window, "writingExplorer");
        QTRY_COMPARE_WITH_TIMEOUT(writing->runId(), runs.front().id, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(writing, "writingStep")->isEnabled(), 30000);
        auto* bars = child<QCustomPlot>(writing, "writingDistribution");
        QTRY_COMPARE_WITH_TIMEOUT(static_cast<int>(barValues(bars, 0).size()), 15, 30000);
        const QString prompt = writing->text();
        QCOMPARE(prompt.toStdString(), stored->sample.substr(0, prompt.size()));
        const auto chosen = ModelExplainer::choose(store.checkpoints(runs.front().id), runs.front().bestStep);
        QVERIFY(chosen);
        const TextGenerator engine(*chosen);
        SamplingSettings one;
        one.tokens = 1;
        const auto expected = engine.generate(prompt.toStdString(), one, 15, false);
        const auto own = barValues(bars, 0);
        for (std::size_t i = 0; i < own.size(); ++i)
            QVERIFY(std::abs(own[i] - expected.steps.front().alternatives[i].probability) < 1e-9);

        // Top-k 1: everything drawn from the likeliest; the model's own bars stay.
        QSignalSpy updated(writing, &WritingExplorer::updated);
        child<QSpinBox>(writing, "writingTopK")->setValue(1);
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() > 0 && barValues(bars, 1).size() == 15 && barValues(bars, 1)[0] == 1.0, 10000);
        QCOMPARE(barValues(bars, 0), own);
        // Step: one token appended, its attention over the text a distribution.
        updated.clear();
        QTest::mouseClick(child<QPushButton>(writing, "writingStep"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(writing->text().size() > prompt.size(), 10000);
        QVERIFY(writing->text().startsWith(prompt));
        const QString appended = writing->text().mid(prompt.size());
        QCOMPARE(appended, QStringLiteral(" ") + QString::fromStdString(expected.steps.front().alternatives.front().token)); // top-k 1: the likeliest
        const auto attention = barValues(child<QCustomPlot>(writing, "writingAttention"), 0);
        QVERIFY(!attention.empty());
        double sum = 0;
        for (double w : attention)
            sum += w;
        QVERIFY2(std::abs(sum - 1.0) < 1e-4, qPrintable(QString::number(sum)));
        // Export: each plot's numbers as CSV, the ones drawn; the attention saved as a picture with its CSV beside it.
        const QStringList barRows = writing->barsCsv().split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(barRows.size(), 16); // the header and the 15 bars
        QCOMPARE(barRows.front(), QStringLiteral("rank,token,model_probability,drawn_from_probability"));
        const auto ownAfter = barValues(bars, 0);
        for (int i = 0; i < 15; ++i)
            QVERIFY(std::abs(barRows[i + 1].section(QLatin1Char(','), -2, -2).toDouble() - ownAfter[static_cast<std::size_t>(i)]) < 1e-8);
        const QStringList weightRows = writing->attentionCsv().split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QVERIFY(weightRows.size() >= static_cast<int>(attention.size()) + 1);
        double csvSum = 0;
        for (int i = 1; i < weightRows.size(); ++i)
            csvSum += weightRows[i].section(QLatin1Char(','), -1).toDouble();
        QVERIFY2(std::abs(csvSum - 1.0) < 1e-4, qPrintable(QString::number(csvSum)));
        const QString picture = dir.filePath(QStringLiteral("attention.png"));
        auto* poll = new QTimer(&window);
        poll->setInterval(20);
        connect(poll, &QTimer::timeout, poll, [poll, picture] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            dialog->findChild<QLineEdit*>(QStringLiteral("exportPathEdit"))->setText(picture);
            dialog->accept();
            poll->stop();
        });
        poll->start();
        QTest::mouseClick(child<QPushButton>(writing, "writingExportAttention"), Qt::LeftButton);
        QVERIFY(QImage(picture).width() > 0);
        QFile saved(dir.filePath(QStringLiteral("attention.csv")));
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(saved.readAll()), writing->attentionCsv());
        QVERIFY(child<QLabel>(writing, "writingStatus")->text().contains(QStringLiteral("attention.csv")));
        // Step by step: layer 2, head 2 on the text's last token, as the engine computes it; a causal query at the end
        // sees every key, and the recomputed weights give back the model's own row.
        auto* attentionTabs = child<QTabWidget>(writing, "writingAttentionTabs");
        auto* stepsView = writing->attentionSteps();
        attentionTabs->setCurrentWidget(stepsView);
        stepsView->showHead(1, 1);
        const std::string text = writing->text().toStdString();
        const int last = static_cast<int>(std::min<std::size_t>(LanguageModelText::split(text, engine.unit()).size(), 32)) - 1;
        QTRY_VERIFY_WITH_TIMEOUT(stepsView->shown() && stepsView->shown()->layer == 1 && stepsView->shown()->head == 1 &&
                                     stepsView->shown()->query == last && static_cast<int>(stepsView->shown()->tokens.size()) == last + 1, 10000);
        const auto want = engine.stepByStep(text, 1, 1, last);
        QCOMPARE(stepsView->shown()->weights, want.weights);
        for (std::size_t j = 0; j < want.weights.size(); ++j) {
            QVERIFY(!stepsView->shown()->masked[j]);
            QVERIFY(std::abs(stepsView->shown()->weights[j] - stepsView->shown()->modelWeights[j]) < 1e-6);
        }
        // An earlier query: the keys after it are masked, and weigh nothing.
        auto* query = child<QComboBox>(stepsView, "stepsQuery");
        query->setCurrentIndex(2);
        emit query->activated(2);
        QTRY_VERIFY_WITH_TIMEOUT(stepsView->shown() && stepsView->shown()->query == 2, 10000);
        for (std::size_t j = 0; j < stepsView->shown()->weights.size(); ++j) {
            QCOMPARE(static_cast<bool>(stepsView->shown()->masked[j]), j > 2);
            if (j > 2)
                QCOMPARE(stepsView->shown()->weights[j], 0.0f);
        }
        QDir().mkpath(QStringLiteral("screenshots"));
        QVERIFY(window.grab().save(QStringLiteral("screenshots/writing-explorer-repeat-1280x720.png")));
    }

    // The docs' pictures of a real run: ATTNLAB_WRITING_DB names a store whose newest run is a language model
    // (a GPT on tiny Shakespeare); skipped without it.
    void screenshotsOfAStoredRun()
    {
        const QString db = qEnvironmentVariable("ATTNLAB_WRITING_DB");
        if (db.isEmpty())
            QSKIP("ATTNLAB_WRITING_DB not set: no stored language model to photograph");
        MainWindow window(db);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto runs = RunStore(db.toStdString()).listRuns();
        QVERIFY(!runs.empty());
        window.showRun(runs.front().id);
        QTest::qWait(1500);
        QDir().mkpath(QStringLiteral("screenshots"));
        QVERIFY(window.grab().save(QStringLiteral("screenshots/language-model-training-1280x720.png")));
        auto* tabs = child<QTabWidget>(&window, "workspaceTabs");
        tabs->setCurrentWidget(child<QWidget>(&window, "explorerScroll"));
        auto* writing = child<WritingExplorer>(&window, "writingExplorer");
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(writing, "writingStep")->isEnabled(), 30000);
        child<QDoubleSpinBox>(writing, "writingTemperature")->setValue(0.8);
        child<QSpinBox>(writing, "writingTokens")->setValue(120);
        QTest::mouseClick(child<QPushButton>(writing, "writingWrite"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(writing->text().size() > 100, 30000);
        QTest::mouseClick(child<QPushButton>(writing, "writingStep"), Qt::LeftButton);
        QTest::qWait(1500);
        QVERIFY(window.grab().save(QStringLiteral("screenshots/writing-explorer-1280x720.png")));
        child<QTabWidget>(writing, "writingAttentionTabs")->setCurrentWidget(writing->attentionSteps());
        writing->attentionSteps()->showHead(1, 0);
        QTest::qWait(1500);
        auto* table = child<QTableView>(writing, "stepsTable"); // where the head looks: by weight, largest first
        for (int c = 0; c < table->model()->columnCount(); ++c)
            if (table->model()->headerData(c, Qt::Horizontal).toString() == QStringLiteral("weight"))
                table->sortByColumn(c, Qt::DescendingOrder);
        QTest::qWait(200);
        QVERIFY(window.grab().save(QStringLiteral("screenshots/attention-step-by-step-1280x720.png")));
    }
};

QTEST_MAIN(TestWritingWindow)
#include "test_writing_window.moc"
