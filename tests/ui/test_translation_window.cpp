// Translation in the window, driven as a student would: the designer offers the translation task with
// its models and options, a Bahdanau model trains on the reversal task from the window, the Training tab shows its
// BLEU and its alignment with the gold one outlined, and the Explorer translates a typed sentence, steps through
// its decoding, shows the beam's tree and scores a typed translation. Every number shown is compared with the
// engine's own (Translator on the same checkpoint, the run store).
#include "core/config/Registry.h"
#include "core/results/AttentionAverage.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Translator.h"
#include "ui/MainWindow.h"
#include "ui/explorer/AlignmentExplorer.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/DrawingControls.h"
#include "ui/explorer/TranslationStepsView.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/AttentionThumbnail.h"
#include "ui/plots/AttentionThumbnailGrid.h"
#include "ui/plots/TrainingCurvesPlot.h"
#include "ui/setup/DataImportDialog.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/TrainingView.h"
#include "tests/support/AnimalPairs.h"
#include "tests/support/CliProcess.h"
#include "tests/support/FormDriving.h"
#include "tests/support/WidgetLookup.h"

#include <QCheckBox>
#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QToolButton>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <qcustomplot.h>

#include <cmath>
#include <fstream>
#include <map>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QStringList ids(const QComboBox* combo)
{
    QStringList out;
    for (int i = 0; i < combo->count(); ++i)
        out << combo->itemData(i).toString();
    return out;
}

bool close(const std::vector<float>& a, const std::vector<float>& b, float tolerance = 1e-5f)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::abs(a[i] - b[i]) > tolerance)
            return false;
    return true;
}

std::vector<std::string> withEos(std::vector<std::string> words)
{
    words.push_back("<eos>");
    return words;
}

// A translation run designed and trained from the window on the CPU (the designer's rows, then Train), on the
// reversal task; returns when it has ended.
struct SmallTranslation {
    const char* model;
    int dModel, layers, heads, steps, evalEvery;
    double learningRate;
};

void trainFromTheWindow(MainWindow& window, const SmallTranslation& run)
{
    choose(child<QComboBox>(&window, "datasetCombo"), "synthetic-reverse");
    choose(child<QComboBox>(&window, "modelCombo"), run.model);
    if (std::string(run.model) == "transformer-seq2seq") {
        choose(child<QComboBox>(&window, "positionCombo"), "sinusoidal");
        child<QSpinBox>(&window, "headsSpin")->setValue(run.heads);
    }
    child<QSpinBox>(&window, "dModelSpin")->setValue(run.dModel);
    child<QSpinBox>(&window, "layersSpin")->setValue(run.layers);
    child<QSpinBox>(&window, "stepsSpin")->setValue(run.steps);
    child<QSpinBox>(&window, "evalEverySpin")->setValue(run.evalEvery);
    child<QSpinBox>(&window, "batchSizeSpin")->setValue(32);
    child<QDoubleSpinBox>(&window, "learningRateSpin")->setValue(run.learningRate);
    child<QSpinBox>(&window, "seedSpin")->setValue(1);
    choose(child<QComboBox>(&window, "deviceCombo"), "cpu");
    QTest::mouseClick(child<QPushButton>(&window, "trainButton"), Qt::LeftButton);
    QVERIFY(window.isTraining());
    QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 240000);
}

// The leaves of the beam tree: hypothesis index -> its item.
void leaves(QTreeWidgetItem* item, std::map<int, QTreeWidgetItem*>& out)
{
    if (item->data(0, Qt::UserRole).isValid())
        out[item->data(0, Qt::UserRole).toInt()] = item;
    for (int i = 0; i < item->childCount(); ++i)
        leaves(item->child(i), out);
}

// A Luong run on the animal pairs, 40 steps at d_model 16, trained by the CLI into dir's store (extra: its options
// beyond those); the run's id, or 0 with the failure recorded.
qint64 trainAnimalPairs(const QTemporaryDir& dir, const QStringList& extra = {})
{
    const QString db = dir.filePath(QStringLiteral("runs.sqlite")), pairs = dir.filePath(QStringLiteral("pairs.tsv"));
    attnlab::testing::writeAnimalPairs(pairs.toStdString());
    QStringList args{"train", "--dataset", "csv-pairs", "--file", pairs, "--model", "luong", "--steps", "40", "--eval-every", "40",
                     "--d-model", "16", "--db", db, "--device", "cpu", "--json"};
    const CliResult r = runCli(args + extra);
    if (r.code != 0) {
        QTest::qFail(qPrintable(r.err), __FILE__, __LINE__);
        return 0;
    }
    return r.lastJson()["run_id"].toInt();
}

} // namespace

class TestTranslationWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attnlab-test-translation"));
        QSettings().clear();
    }

    void designerOffersTranslationByTheRegistry()
    {
        SetupPanel panel;
        panel.setAdvancedShown(true);
        panel.resize(480, 1400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QComboBox* dataset = child<QComboBox>(&panel, "datasetCombo");
        QComboBox* model = child<QComboBox>(&panel, "modelCombo");
        for (const char* id : {"multi30k", "synthetic-reverse", "synthetic-copy", "synthetic-sort", "synthetic-dates"})
            QVERIFY2(dataset->findData(QString::fromLatin1(id)) >= 0, id);

        // A translation dataset offers exactly the translation models.
        choose(dataset, "synthetic-reverse");
        QStringList translationModels;
        for (const auto& entry : Registry::models())
            if (entry.servesTask(TaskKind::Translation))
                translationModels << QString::fromStdString(entry.id);
        QCOMPARE(ids(model), translationModels);
        QVERIFY(!child<QLineEdit>(&panel, "embeddingsEdit")->isVisibleTo(&panel)); // word vectors are the classifiers'

        // Every model's option rows are shown by its registry entry, and no other model's (the check, for
        // the options these rows set).
        const std::map<std::string, const char*> rows = {{"attention_score", "attentionScoreCombo"}, {"alignment", "alignmentCombo"},
                                                         {"embedding_dim", "embeddingDimSpin"},        {"ffn_hidden", "ffnHiddenSpin"},
                                                         {"ff_hidden", "ffHiddenSpin"},                {"filters", "filtersSpin"},
                                                         {"input_length", "inputLengthSpin"}};
        const std::map<TaskKind, const char*> datasetOfTask = {{TaskKind::Classification, "synthetic-sentiment"},
                                                               {TaskKind::Regression, "synthetic-lag"},
                                                               {TaskKind::Translation, "synthetic-reverse"},
                                                               {TaskKind::LanguageModel, "synthetic-repeat"}};
        for (const auto& entry : Registry::models()) {
            choose(dataset, datasetOfTask.at(entry.task()));
            choose(model, entry.id.c_str());
            for (const auto& [option, name] : rows) {
                const bool has = std::count(entry.options.begin(), entry.options.end(), option) > 0;
                QWidget* field = panel.findChild<QWidget*>(QLatin1String(name));
                QVERIFY(field);
                QVERIFY2(field->isVisibleTo(&panel) == has, qPrintable(QStringLiteral("%1: %2").arg(QString::fromStdString(entry.id), name)));
            }
        }

        // Luong: its scores, local windows and decoding settings reach the configuration, and come back from it.
        choose(dataset, "synthetic-reverse");
        choose(model, "luong");
        QSpinBox* window = child<QSpinBox>(&panel, "localWindowSpin");
        QVERIFY(!window->isVisibleTo(&panel)); // global attention has no window
        choose(child<QComboBox>(&panel, "attentionScoreCombo"), "dot");
        choose(child<QComboBox>(&panel, "alignmentCombo"), "local-p");
        QVERIFY(window->isVisibleTo(&panel));
        window->setValue(3);
        child<QSpinBox>(&panel, "beamSizeSpin")->setValue(4);
        child<QDoubleSpinBox>(&panel, "lengthPenaltySpin")->setValue(0.6);
        child<QDoubleSpinBox>(&panel, "labelSmoothingSpin")->setValue(0.1);
        child<QDoubleSpinBox>(&panel, "teacherForcingSpin")->setValue(0.5);
        child<QSpinBox>(&panel, "maxWordsSpin")->setValue(8);
        TrainConfig c = panel.config();
        QCOMPARE(c.dataset, std::string("synthetic-reverse"));
        QCOMPARE(c.model.model, std::string("luong"));
        QCOMPARE(c.model.attentionScore, std::string("dot"));
        QCOMPARE(c.model.alignment, std::string("local-p"));
        QCOMPARE(c.model.localWindow, 3);
        QCOMPARE(c.beamSize, 4);
        QCOMPARE(c.lengthPenalty, 0.6);
        QCOMPARE(c.labelSmoothing, 0.1);
        QCOMPARE(c.teacherForcing, 0.5);
        QCOMPARE(c.sequenceMaxLength, 8);
        QCOMPARE(c.validate(), std::string());
        SetupPanel other;
        other.setConfig(c);
        QCOMPARE(other.config().toJson(), c.toJson());

        // The Transformer has no teacher-forcing ratio; a model without attention has no score.
        choose(model, "transformer-seq2seq");
        QVERIFY(!child<QDoubleSpinBox>(&panel, "teacherForcingSpin")->isVisibleTo(&panel));
        QVERIFY(child<QDoubleSpinBox>(&panel, "labelSmoothingSpin")->isVisibleTo(&panel));
        choose(model, "seq2seq");
        QCOMPARE(panel.config().model.attentionScore, std::string());

        // Multi30k: a direction and word pieces; the generated sizes are the synthetic tasks'.
        choose(dataset, "multi30k");
        QVERIFY(child<QComboBox>(&panel, "sourceLanguageCombo")->isVisibleTo(&panel));
        QVERIFY(!child<QSpinBox>(&panel, "pairsTrainSpin")->isVisibleTo(&panel));
        choose(child<QComboBox>(&panel, "sourceLanguageCombo"), "en");
        choose(child<QComboBox>(&panel, "targetLanguageCombo"), "fr");
        choose(child<QComboBox>(&panel, "subwordsCombo"), "bpe");
        child<QSpinBox>(&panel, "subwordVocabularySpin")->setValue(4000);
        c = panel.config();
        QCOMPARE(c.sourceLanguage, std::string("en"));
        QCOMPARE(c.targetLanguage, std::string("fr"));
        QCOMPARE(c.subwords, std::string("bpe"));
        QCOMPARE(c.subwordVocabulary, 4000);
        choose(dataset, "synthetic-dates");
        QVERIFY(child<QSpinBox>(&panel, "pairsTrainSpin")->isVisibleTo(&panel));
        QVERIFY(!child<QSpinBox>(&panel, "maxWordsSpin")->isVisibleTo(&panel)); // a date's length is its format's
        QVERIFY(!child<QComboBox>(&panel, "sourceLanguageCombo")->isVisibleTo(&panel));
    }

    void trainAlignAndExplore()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        MainWindow window(db);
        window.resize(1280, 720); // a projector's
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Bahdanau on reversal, small and short (as the CLI's translation test trains it): enough to align.
        trainFromTheWindow(window, {"bahdanau", 32, 1, 1, 300, 150, 0.005});
        if (QTest::currentTestFailed())
            return;
        const qint64 runId = window.liveRunId();
        QVERIFY(runId > 0);
        RunStore store(db.toStdString());
        const auto record = store.run(runId);
        QVERIFY(record);
        QCOMPARE(QString::fromStdString(toString(record->status)), QStringLiteral("completed"));

        // Training tab: BLEU, drawn as stored; the probe pair's alignment as stored, the gold alignment outlined.
        auto* curves = child<TrainingCurvesPlot>(&window, "trainingCurvesPlot");
        QCOMPARE(curves->metricName(), QStringLiteral("bleu"));
        const QCPGraph* devBleu = child<QCPGraph>(curves, "devMetricGraph");
        std::vector<double> storedBleu;
        for (const auto& p : store.metrics(runId))
            if (p.split == "dev" && p.name == "bleu")
                storedBleu.push_back(p.value);
        QCOMPARE(static_cast<std::size_t>(devBleu->dataCount()), storedBleu.size());
        QCOMPARE((devBleu->data()->constEnd() - 1)->value, storedBleu.back());
        AttentionHeatmap* trainingMap = nullptr;
        for (auto* map : window.findChildren<AttentionHeatmap*>(QStringLiteral("attentionHeatmap")))
            if (map->snapshot() && !map->snapshot()->crossMaps.empty())
                trainingMap = map;
        QVERIFY(trainingMap);
        const auto probe = store.latestAttention(runId);
        QVERIFY(probe && !probe->crossMaps.empty());
        QVERIFY(!probe->goldAlignment.empty()); // stored with the snapshot, read back
        QCOMPARE(trainingMap->shownRows(), probe->targetTokens);
        QCOMPARE(trainingMap->shownColumns(), probe->tokens);
        QVERIFY(close(trainingMap->shownValues(), probe->crossMaps.front().weights));
        QCOMPARE(trainingMap->goldMarkCount(), static_cast<int>(probe->goldAlignment.size()));
        QVERIFY(trainingMap->fullTitle().contains(QStringLiteral("greedy now")));
        const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
        QVERIFY(QDir().mkpath(shots));
        QTest::qWait(100);
        QVERIFY(window.grab().save(shots + QStringLiteral("/translation-training-1280x720.png")));

        // The Explorer: the alignment explorer opens the run's weights and translates the probe's source.
        auto* tabs = child<QTabWidget>(&window, "workspaceTabs");
        tabs->setCurrentWidget(child<QWidget>(&window, "explorerScroll"));
        auto* explorer = child<AlignmentExplorer>(&window, "alignmentExplorer");
        QTRY_VERIFY_WITH_TIMEOUT(explorer->isReady(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(explorer->shown().has_value() && !explorer->isBusy(), 30000);
        QCOMPARE(explorer->runId(), runId);

        const auto chosen = ModelExplainer::choose(store.checkpoints(runId), record->bestStep);
        QVERIFY(chosen);
        const Translator engine(*chosen);
        TranslationDecoding decoding;
        decoding.alternatives = 5;
        QSignalSpy translated(explorer, &AlignmentExplorer::translated);
        explorer->translate(QStringLiteral("ant bee cat dog"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(translated.count(), 1, 30000);
        const Translation greedy = engine.translate("ant bee cat dog", decoding);
        QCOMPARE(explorer->shown()->text, greedy.text);
        QVERIFY(close(explorer->shown()->probabilities, greedy.probabilities));
        // The large map is the engine's alignment, rows the translation and <eos>, columns the source.
        QCOMPARE(explorer->heatmap()->shownRows(), withEos(greedy.targetTokens));
        QCOMPARE(explorer->heatmap()->shownColumns(), greedy.sourceTokens);
        QVERIFY(close(explorer->heatmap()->shownValues(), greedy.cross.front().weights));
        // Right answer known: the gold alignment outlined where the lengths agree, and the engine's AER shown.
        QCOMPARE(explorer->shown()->reference, (std::vector<std::string>{"dog", "cat", "bee", "ant"}));
        auto* result = child<QLabel>(explorer, "alignmentResult");
        if (greedy.targetTokens.size() == 4) {
            QCOMPARE(explorer->heatmap()->goldMarkCount(), 4);
            QVERIFY(result->text().contains(QString::number(100.0 * greedy.alignmentErrorRate, 'f', 1) + QLatin1Char('%')));
        }

        // Step by step: the table's probabilities and alternatives are the engine's; a step's row is its alignment row.
        auto* steps = child<QTableWidget>(explorer, "alignmentStepsTable");
        QCOMPARE(steps->rowCount(), static_cast<int>(greedy.targetTokens.size()) + 1);
        for (int r = 0; r < steps->rowCount(); ++r) {
            QCOMPARE(steps->item(r, 2)->data(Qt::UserRole).toFloat(), greedy.probabilities[static_cast<std::size_t>(r)]);
            QVERIFY(steps->item(r, 3)->text().startsWith(QString::fromStdString(greedy.alternatives[static_cast<std::size_t>(r)].front().token)));
        }
        auto* slider = child<QSlider>(explorer, "alignmentStepSlider");
        auto* stepMap = child<AttentionHeatmap>(explorer, "alignmentStepMap");
        const int step = std::min(2, steps->rowCount() - 1);
        slider->setValue(step);
        const int sources = static_cast<int>(greedy.sourceTokens.size());
        const auto& w = greedy.cross.front().weights;
        QVERIFY(close(stepMap->shownValues(), std::vector<float>(w.begin() + step * sources, w.begin() + (step + 1) * sources)));
        QCOMPARE(steps->currentRow(), step);
        QVERIFY(child<QLabel>(explorer, "alignmentStepLabel")->text().contains(QStringLiteral("Step %1").arg(step + 1)));
        QTest::qWait(100); // the maps' queued replots
        QVERIFY(window.grab().save(shots + QStringLiteral("/translation-explorer-1280x720.png")));

        // The beam: every hypothesis a leaf with the engine's score, the kept one first; each with its own alignment.
        explorer->translate(QStringLiteral("cat dog eel ant"), 4);
        QTRY_COMPARE_WITH_TIMEOUT(translated.count(), 2, 30000);
        decoding.beamSize = 4;
        const Translation beam = engine.translate("cat dog eel ant", decoding);
        QVERIFY(beam.hypotheses.size() >= 2);
        auto* tree = child<QTreeWidget>(explorer, "alignmentBeamTree");
        std::map<int, QTreeWidgetItem*> found;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            leaves(tree->topLevelItem(i), found);
        QCOMPARE(found.size(), beam.hypotheses.size());
        for (const auto& [h, item] : found)
            QVERIFY(std::abs(item->data(2, Qt::UserRole).toDouble() - beam.hypotheses[static_cast<std::size_t>(h)].score) < 1e-6);
        QVERIFY(found.at(0)->text(2).contains(QStringLiteral("kept")));
        QVERIFY(found.at(0)->font(0).bold());
        tree->setCurrentItem(found.at(1));
        QCOMPARE(explorer->heatmap()->shownRows(), withEos(beam.hypotheses[1].tokens));
        QVERIFY(close(explorer->heatmap()->shownValues(), beam.hypotheses[1].cross.front().weights));
        child<QTabWidget>(explorer, "alignmentTabs")->setCurrentIndex(1);
        QTest::qWait(100);
        QVERIFY(window.grab().save(shots + QStringLiteral("/translation-beam-1280x720.png")));

        // A typed translation, scored word by word: the engine's probabilities, the gold alignment, and the rows
        // where the model would have said something else marked.
        explorer->force(QStringLiteral("ant bee cat dog"), QStringLiteral("dog bee cat ant"));
        QTRY_COMPARE_WITH_TIMEOUT(translated.count(), 3, 30000);
        const Translation forced = engine.force("ant bee cat dog", "dog bee cat ant", TranslationDecoding{0, -1, true, 5});
        QVERIFY(explorer->shown()->forced);
        QVERIFY(close(explorer->shown()->probabilities, forced.probabilities));
        QVERIFY(close(explorer->heatmap()->shownValues(), forced.cross.front().weights));
        QCOMPARE(explorer->heatmap()->goldMarkCount(), 4);
        QVERIFY(result->text().contains(QString::number(100.0 * forced.alignmentErrorRate, 'f', 1) + QLatin1Char('%')));
        int marked = 0, disagreements = 0;
        for (int r = 0; r < steps->rowCount(); ++r) {
            marked += !steps->item(r, 1)->toolTip().isEmpty();
            const std::string word = r < 4 ? forced.targetTokens[static_cast<std::size_t>(r)] : "<eos>";
            disagreements += forced.alternatives[static_cast<std::size_t>(r)].front().token != word;
        }
        QCOMPARE(marked, disagreements);

        // Bad input says so and loses nothing.
        QSignalSpy said(explorer, &AlignmentExplorer::statusMessage);
        explorer->force(QStringLiteral("ant bee"), QStringLiteral("   "));
        QCOMPARE(said.count(), 1);
        QVERIFY(said.first().first().toString().contains(QStringLiteral("Type the translation")));
        QTest::qWait(200);
        QCOMPARE(translated.count(), 3);
        QVERIFY(explorer->shown()->forced); // what was shown stays
    }

    // The Transformer's heads in the Training tab: under the alignment, its cross-attention as a layer x head
    // grid with the last layer's mean (the alignment AER reads), the encoder's and the decoder's self-attention one
    // click away; a click on a thumbnail shows that map large, and choosing a map in the selector outlines its
    // thumbnail. Every map compared with the run's stored snapshot.
    void transformerHeadsInTheTrainingView()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
        MainWindow window(db);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // 600 steps, a few seconds: long enough for the screenshot to show the alignment forming.
        trainFromTheWindow(window, {"transformer-seq2seq", 32, 2, 2, 600, 300, 0.003});
        if (QTest::currentTestFailed())
            return;
        const qint64 runId = window.liveRunId();
        RunStore store(db.toStdString());
        const auto probe = store.latestAttention(runId);
        QVERIFY(probe);
        QCOMPARE(probe->crossMaps.size(), std::size_t(4)); // 2 layers x 2 heads each
        QCOMPARE(probe->maps.size(), std::size_t(4));
        QCOMPARE(probe->decoderMaps.size(), std::size_t(4));

        auto* view = window.findChild<TrainingView*>();
        QVERIFY(view);
        AttentionHeatmap* map = view->heatmap();
        auto* grid = child<AttentionThumbnailGrid>(view, "trainingAttentionGrid");
        QTRY_VERIFY(grid->isVisible());
        QCOMPARE(grid->group(), AttentionThumbnailGrid::Group::Cross);
        QCOMPARE(grid->thumbnailCount(), 4 + 1); // the heads and the last layer's mean
        // The heatmap's views: the mean (0), the four cross maps (1-4), the encoder's (5-8), the decoder's (9-12).
        QCOMPARE(map->currentMapIndex(), 0);
        QVERIFY(child<AttentionThumbnail>(grid, "thumbnail0")->isChecked());
        QVERIFY(close(map->shownValues(), AttentionAverage::ofLastLayer(probe->crossMaps).weights));
        for (int i = 0; i < 4; ++i) {
            const AttentionMap& m = probe->crossMaps[static_cast<std::size_t>(i)];
            auto* thumbnail = child<AttentionThumbnail>(grid, qPrintable(QStringLiteral("thumbnail%1").arg(1 + i)));
            QCOMPARE(thumbnail->text(), QStringLiteral("L%1 H%2").arg(m.layer + 1).arg(m.head + 1));
            QCOMPARE(thumbnail->image().width(), static_cast<int>(probe->tokens.size()));       // source across
            QCOMPARE(thumbnail->image().height(), static_cast<int>(probe->targetTokens.size())); // target down
            QTest::mouseClick(thumbnail, Qt::LeftButton);
            QCOMPARE(map->currentMapIndex(), 1 + i);
            QVERIFY(close(map->shownValues(), m.weights));
            QCOMPARE(map->shownRows(), probe->targetTokens);
            QVERIFY2(map->fullTitle().contains(QStringLiteral("layer %1, head %2").arg(m.layer + 1).arg(m.head + 1)),
                     qPrintable(map->fullTitle()));
        }
        QTest::qWait(100);
        const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
        QVERIFY(QDir().mkpath(shots));
        QVERIFY(window.grab().save(shots + QStringLiteral("/translation-heads-1280x720.png")));

        // One click to the decoder's causal self-attention: its grid, and a thumbnail opens its map.
        QTest::mouseClick(child<QToolButton>(grid, "attentionGroupDecoder"), Qt::LeftButton);
        QCOMPARE(grid->group(), AttentionThumbnailGrid::Group::Decoder);
        QCOMPARE(grid->thumbnailCount(), 4);
        QTest::mouseClick(child<AttentionThumbnail>(grid, "thumbnail11"), Qt::LeftButton);
        QCOMPARE(map->currentMapIndex(), 11);
        QVERIFY(close(map->shownValues(), probe->decoderMaps[2].weights));
        QCOMPARE(map->shownColumns(), probe->targetTokens);
        // The selector picks an encoder map: the grid turns to the encoder's and outlines it.
        map->showView(6);
        QCOMPARE(grid->group(), AttentionThumbnailGrid::Group::Encoder);
        QVERIFY(child<QToolButton>(grid, "attentionGroupEncoder")->isChecked());
        QVERIFY(child<AttentionThumbnail>(grid, "thumbnail6")->isChecked());
        QVERIFY(close(map->shownValues(), probe->maps[1].weights));
        // A snapshot with one alignment (an RNN's: no heads to choose from) hides the grid; so does none at all.
        AttentionSnapshot one = *probe;
        one.crossMaps.resize(1);
        one.maps.clear();
        one.decoderMaps.clear();
        view->showStored(runId, QStringLiteral("one alignment"), QString(), 600, {}, one, 600, 300);
        QVERIFY(!grid->isVisible());
        QVERIFY(close(map->shownValues(), one.crossMaps.front().weights));
        view->showStored(runId, QStringLiteral("no attention"), QString(), 600, {}, std::nullopt, 600, 300);
        QVERIFY(!grid->isVisible());
        QVERIFY(map->isPlaceholderShown());

        // The Explorer's "Attention, step by step": a cross-attention head of the shown translation, its weights the
        // row of the map the explorer shows for that head; then the decoder's, its later words masked.
        auto* tabs = child<QTabWidget>(&window, "workspaceTabs");
        tabs->setCurrentWidget(child<QWidget>(&window, "explorerScroll"));
        auto* explorer = child<AlignmentExplorer>(&window, "alignmentExplorer");
        QTRY_VERIFY_WITH_TIMEOUT(explorer->isReady() && explorer->shown().has_value() && !explorer->isBusy(), 30000);
        QSignalSpy translated(explorer, &AlignmentExplorer::translated);
        explorer->translate(QStringLiteral("ant bee cat dog"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(translated.count(), 1, 30000);
        auto* explorerTabs = child<QTabWidget>(explorer, "alignmentTabs");
        explorerTabs->setCurrentIndex(2);
        QCOMPARE(explorerTabs->tabText(2), QStringLiteral("Attention, step by step"));
        auto* steps = explorer->attentionSteps()->steps();
        QTRY_VERIFY_WITH_TIMEOUT(steps->shown().has_value(), 30000);
        QCOMPARE(steps->shown()->part, std::string("cross"));
        QSignalSpy updated(steps, &AttentionStepsView::updated);
        steps->showHead(1, 0); // layer 2, head 1
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 1 && steps->shown()->layer == 1, 30000);
        const Translation& shown = *explorer->shown();
        const AttentionMap* cross = nullptr;
        for (const auto& m : shown.cross)
            if (m.layer == 1 && m.head == 0)
                cross = &m;
        QVERIFY(cross);
        const int row = steps->shown()->query;
        QCOMPARE(steps->shown()->tokens, shown.sourceTokens);
        QCOMPARE(steps->shown()->queryTokens, withEos(shown.targetTokens));
        for (int j = 0; j < cross->width(); ++j)
            QVERIFY(std::abs(steps->shown()->weights[static_cast<std::size_t>(j)] - cross->at(row, j)) < 1e-5);
        QVERIFY(child<QLabel>(steps, "stepsCheck")->text().contains(QStringLiteral("the model's own")));
        QTest::qWait(100);
        QVERIFY(window.grab().save(shots + QStringLiteral("/translation-steps-1280x720.png")));
        auto* part = child<QComboBox>(explorer, "stepsPart");
        part->setCurrentIndex(part->findData(QStringLiteral("decoder")));
        Q_EMIT part->activated(part->currentIndex());
        QTRY_VERIFY_WITH_TIMEOUT(steps->shown()->part == "decoder", 30000);
        for (std::size_t j = 0; j < steps->shown()->masked.size(); ++j)
            QCOMPARE(static_cast<bool>(steps->shown()->masked[j]), static_cast<int>(j) > steps->shown()->query);
    }

    // A run on word pieces (SentencePiece BPE on the user's pairs): the explorer shows its maps over whole words,
    // merged as the Pretrained tab merges (TokenGrouping), or over the pieces the model read.
    // "Your own data…" for sentence pairs: designing a translation, the import dialog opens at
    // sentence pairs, reads a TSV of them (source and target columns found, the split in pairs), and the designer
    // trains a translation model on it; the run stores the file.
    void ownPairsFromTheImportDialog()
    {
        QTemporaryDir dir;
        const QString tsv = dir.filePath(QStringLiteral("pairs.tsv"));
        testing::writeAnimalPairs(tsv.toStdString());
        const QString db = dir.filePath(QStringLiteral("pairs.sqlite"));
        MainWindow window(db);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        choose(child<QComboBox>(&window, "datasetCombo"), "synthetic-reverse"); // a translation is being designed
        child<QAction>(&window, "importOwnDataAction")->trigger();
        auto* dialog = window.findChild<DataImportDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->datasetId(), QStringLiteral("csv-pairs"));
        dialog->setFile(tsv);
        auto* ok = child<QDialogButtonBox>(dialog, "importButtons")->button(QDialogButtonBox::Ok);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isBusy() && ok->isEnabled(), 30000);
        QVERIFY(dialog->preview() && dialog->preview()->translation() && dialog->preview()->loaded);
        const QString counts = child<QLabel>(dialog, "importCountsLabel")->text();
        QVERIFY2(counts.contains(QStringLiteral("Split: train 280 · dev 60 · test 60 sentence pairs")), qPrintable(counts));
        auto* table = child<QTableView>(dialog, "importPreviewTable");
        QVERIFY(table->model()->headerData(0, Qt::Horizontal).toString().contains(QStringLiteral("[source]")));
        QVERIFY(table->model()->headerData(1, Qt::Horizontal).toString().contains(QStringLiteral("[target]")));
        QTest::mouseClick(ok, Qt::LeftButton);

        SetupPanel* setup = child<SetupPanel>(&window, "setupPanel");
        QCOMPARE(QString::fromStdString(setup->config().dataset), QStringLiteral("csv-pairs"));
        QCOMPARE(QString::fromStdString(setup->config().file), tsv);
        choose(child<QComboBox>(&window, "modelCombo"), "seq2seq");
        child<QSpinBox>(&window, "stepsSpin")->setValue(20);
        child<QSpinBox>(&window, "evalEverySpin")->setValue(10);
        choose(child<QComboBox>(&window, "deviceCombo"), "cpu");
        child<QAction>(&window, "trainAction")->trigger();
        QVERIFY(window.isTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 120000);
        RunStore store(db.toStdString());
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), std::size_t(1));
        QVERIFY2(runs.front().status == RunStatus::Completed, runs.front().message.c_str());
        const TrainConfig stored = TrainConfig::fromJson(runs.front().configJson);
        QCOMPARE(QString::fromStdString(stored.dataset), QStringLiteral("csv-pairs"));
        QCOMPARE(QString::fromStdString(stored.file), tsv);
    }

    void subwordRunsShowWordsOrPieces()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const qint64 run = trainAnimalPairs(dir, {"--subwords", "bpe", "--subword-vocabulary", "40"});
        if (QTest::currentTestFailed())
            return;
        RunStore store(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
        AlignmentExplorer explorer;
        explorer.setStore(&store);
        explorer.resize(1000, 700);
        explorer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&explorer));
        explorer.setRun(run);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.isReady(), 30000);
        QSignalSpy translated(&explorer, &AlignmentExplorer::translated);
        QTRY_VERIFY_WITH_TIMEOUT(!explorer.isBusy(), 30000);
        explorer.translate(QStringLiteral("Katze Pferd Hund"), 1);
        QTRY_VERIFY_WITH_TIMEOUT(translated.count() >= 1 && !explorer.isBusy(), 30000);
        const Translation& t = *explorer.shown();
        auto* words = child<QCheckBox>(&explorer, "alignmentWordsBox");
        QVERIFY(!words->isHidden());
        QVERIFY(words->isChecked());
        QCOMPARE(explorer.heatmap()->shownColumns(), (std::vector<std::string>{"Katze", "Pferd", "Hund"}));
        const int rows = static_cast<int>(explorer.heatmap()->shownRows().size());
        const auto merged = explorer.heatmap()->shownValues();
        for (int row = 0; row < rows; ++row) { // attention to a word summed over its pieces: rows still distributions
            double sum = 0;
            for (int c = 0; c < 3; ++c)
                sum += merged[static_cast<std::size_t>(row * 3 + c)];
            QVERIFY(std::abs(sum - 1.0) < 1e-4);
        }
        words->setChecked(false);
        QCOMPARE(explorer.heatmap()->shownColumns(), t.sourceTokens);
        QVERIFY(close(explorer.heatmap()->shownValues(), t.cross.front().weights));
    }

    // Drawn translations in the explorer: "Draw the words" samples each word as `translate --temperature` does; a seed
    // gives the engine's own draw, "Draw again" the next seed's; no beam meanwhile.
    void drawnTranslationsInTheExplorer()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const qint64 run = trainAnimalPairs(dir);
        if (QTest::currentTestFailed())
            return;
        RunStore store(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
        AlignmentExplorer explorer;
        explorer.setStore(&store);
        explorer.show();
        explorer.setRun(run);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.isReady() && !explorer.isBusy(), 30000);
        auto* beam = child<QSpinBox>(&explorer, "alignmentBeamSpin");
        QVERIFY(beam->isEnabled());
        explorer.drawing()->setTemperature(1.5);
        explorer.drawing()->setSeed(7);
        explorer.drawing()->setDrawing(true);
        QVERIFY(!beam->isEnabled());
        QSignalSpy translated(&explorer, &AlignmentExplorer::translated);
        explorer.translate(QStringLiteral("Katze Pferd Hund"), 3);
        QTRY_VERIFY_WITH_TIMEOUT(translated.count() == 1 && !explorer.isBusy(), 30000);

        const auto record = store.run(run);
        const Translator engine(*ModelExplainer::choose(store.checkpoints(run), record->bestStep));
        auto drawnWith = [&](std::uint64_t seed) {
            TranslationDecoding decoding;
            decoding.alternatives = 5;
            decoding.beamSize = 1;
            decoding.sampling = SamplingSettings{1.5, 0, 1.0, false, seed};
            return engine.translate("Katze Pferd Hund", decoding);
        };
        for (const std::uint64_t seed : {7u, 8u}) {
            const Translation expected = drawnWith(seed);
            QVERIFY(explorer.shown()->sampled);
            QCOMPARE(explorer.shown()->seed, seed);
            QCOMPARE(explorer.shown()->text, expected.text);
            QVERIFY(close(explorer.shown()->probabilities, expected.probabilities));
            QVERIFY(close(explorer.heatmap()->shownValues(), expected.cross.front().weights));
            const QString said = child<QLabel>(&explorer, "alignmentResult")->text();
            QVERIFY2(said.contains(QStringLiteral("drawn at temperature 1.5")) && said.contains(QStringLiteral("seed %1").arg(seed)), qPrintable(said));
            if (seed == 7u) { // the next seed, drawn at once
                child<QPushButton>(&explorer, "alignmentDrawAgain")->click();
                QTRY_VERIFY_WITH_TIMEOUT(translated.count() == 2 && !explorer.isBusy(), 30000);
            }
        }
        explorer.drawing()->setDrawing(false);
        QVERIFY(beam->isEnabled());
    }
};

QTEST_MAIN(TestTranslationWindow)
#include "test_translation_window.moc"
