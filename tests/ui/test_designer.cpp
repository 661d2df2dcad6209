// The experiment designer, driven through the window's own widgets and actions: presets and
// lessons fill the form and the form says what differs; every CLI setting is reachable; Save as writes what
// --config reads; settings survive a restart; the toolbar and shortcuts train and stop; presentation mode.
#include "core/config/TeachingScenario.h"
#include "core/config/TrainPreset.h"
#include "core/store/RunStore.h"
#include "ui/MainWindow.h"
#include "ui/plots/AttentionHeatmap.h"
#include "core/config/Registry.h"
#include "ui/setup/DataImportDialog.h"
#include "ui/setup/FormSection.h"
#include "ui/setup/PresetChooser.h"
#include "ui/training/LiveComparisonView.h"
#include "ui/setup/SetupPanel.h"
#include "tests/support/RealData.h"
#include "tests/support/FormDriving.h"
#include "tests/support/WidgetLookup.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QStatusBar>
#include <QtTest/QtTest>
#include <qcustomplot.h>

#include <algorithm>
#include <map>
#include <set>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// Whether a form row's field is shown (rows are hidden with QFormLayout::setRowVisible).
bool rowShown(QWidget* field) { return !field->isHidden(); }

} // namespace

class TestDesigner : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("attnlab-test"));
        QCoreApplication::setApplicationName(QStringLiteral("designer"));
    }

    // A thesis preset fills every setting it names (embeddings included), and the form lists what the
    // user changed from it, key by key.
    void presetFillsTheFormAndShowsDifferences()
    {
        SetupPanel panel;
        PresetChooser* presets = panel.presets();
        QVERIFY(presets->choose(QStringLiteral("table5.3-lstm-quick")));
        const TrainPreset* preset = TrainPreset::find("table5.3-lstm-quick");
        QVERIFY(preset);
        QCOMPARE(child<QComboBox>(&panel, "datasetCombo")->currentData().toString(), QStringLiteral("sst-fine"));
        QCOMPARE(child<QComboBox>(&panel, "modelCombo")->currentData().toString(), QStringLiteral("lstm"));
        QCOMPARE(child<QSpinBox>(&panel, "stepsSpin")->value(), preset->config.steps);
        QCOMPARE(child<QSpinBox>(&panel, "dModelSpin")->value(), 100);
        QCOMPARE(child<QDoubleSpinBox>(&panel, "dropoutKeepSpin")->value(), 0.5);
        QCOMPARE(child<QSpinBox>(&panel, "repeatsSpin")->value(), preset->repeats);
        QCOMPARE(child<QLineEdit>(&panel, "embeddingsEdit")->text().toStdString(), preset->config.embeddingsPath);
        // The form's configuration is the preset's (the window's own folders aside).
        TrainConfig fromForm = panel.config();
        TrainConfig expected = preset->config;
        expected.dataDir = fromForm.dataDir;
        expected.threads = fromForm.threads;
        QCOMPARE(QString::fromStdString(fromForm.toJson()), QString::fromStdString(expected.toJson()));
        auto* differences = child<QLabel>(&panel, "presetDifferences");
        QVERIFY2(differences->text().contains(QStringLiteral("As the preset")), qPrintable(differences->text()));

        child<QSpinBox>(&panel, "stepsSpin")->setValue(600);
        child<QSpinBox>(&panel, "dModelSpin")->setValue(64);
        QVERIFY2(differences->text().contains(QStringLiteral("steps 1500 → <b>600</b>")), qPrintable(differences->text()));
        QVERIFY2(differences->text().contains(QStringLiteral("d_model 100 → <b>64</b>")), qPrintable(differences->text()));
        QVERIFY(!differences->text().contains(QStringLiteral("optimizer")));
    }

    // A lesson gives its presets' configurations for side-by-side training; "Why position matters" is the
    // same SSAN with three position techniques on the order-dependent data.
    void lessonGivesItsConfigurations()
    {
        SetupPanel panel;
        QSignalSpy spy(&panel, &SetupPanel::scenarioChosen);
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:why-position-matters")));
        QCOMPARE(spy.count(), 1);
        const auto configs = spy.at(0).at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(configs.size(), std::size_t(3));
        QStringList positions;
        for (const auto& c : configs) {
            positions << QString::fromStdString(c.model.position);
            QCOMPARE(QString::fromStdString(c.model.model), QStringLiteral("ssan"));
            QVERIFY(c.orderDependent);
            QCOMPARE(c.seed, configs.front().seed); // same data, seed and batch order
        }
        QCOMPARE(positions, (QStringList{"none", "sinusoidal", "rpr"}));
        QVERIFY(child<QCheckBox>(&panel, "orderDependentBox")->isChecked()); // the form shows the first one
        QCOMPARE(spy.at(0).at(1).toString(), QStringLiteral("Why position matters"));
        QCOMPARE(TeachingScenario::all().size(), std::size_t(21));
        QCOMPARE(spy.at(0).at(3).toString(), QString()); // opens nothing at its end
        // A lesson that explores the pretrained LLM trains nothing: it names itself, the side-by-side list is
        // untouched.
        QSignalSpy exploring(panel.presets(), &PresetChooser::explorationChosen);
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:the-logit-lens")));
        QCOMPARE(exploring.count(), 1);
        QCOMPARE(exploring.at(0).at(0).toString(), QStringLiteral("the-logit-lens"));
        QCOMPARE(spy.count(), 1);
        QVERIFY(child<QLabel>(&panel, "presetDescription")->text().contains(QStringLiteral("Paris")));

        // "Why divide by sqrt(d_k)": the same GPT twice, its scores divided and not; "Temperature and top-p" ends in the
        // Explorer (the writing view of a language model's run).
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:why-divide-by-sqrt-dk")));
        const auto scaling = spy.last().at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(scaling.size(), std::size_t(2));
        QVERIFY(scaling[0].model.scaled);
        QVERIFY(!scaling[1].model.scaled);
        QCOMPARE(scaling[0].model.heads, 1);
        QCOMPARE(scaling[0].model.dModel, 256);
        // "Why gates?": a plain RNN, a GRU and an LSTM on the long-range sentences, each recording its gradient; it
        // ends in Compare, where the gradient's reach by word distance is drawn.
        // "Which side needs self-attention?": the 2 x 2 of encoders and decoders, each on its own side's defaults.
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:which-side-needs-self-attention")));
        const auto sides = spy.last().at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(sides.size(), std::size_t(4));
        QStringList sideModels;
        for (const auto& c : sides)
            sideModels << QString::fromStdString(c.model.model + "/" + c.model.position);
        QCOMPARE(sideModels, (QStringList{"bahdanau/none", "transformer-bahdanau/sinusoidal", "birnn-transformer/sinusoidal",
                                          "transformer-seq2seq/sinusoidal"}));
        QCOMPARE(spy.last().at(3).toString(), QStringLiteral("compare"));
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:why-gates")));
        const auto gates = spy.last().at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(gates.size(), std::size_t(4));
        QStringList cells;
        for (const auto& c : gates) {
            cells << QString::fromStdString(c.model.model);
            QVERIFY(c.gradientNorms);
            QCOMPARE(c.distance, 12);
        }
        QCOMPARE(cells, (QStringList {"rnn", "gru", "lstm", "ssan"})); // the SSAN: Table 3.1's path length beside them
        QCOMPARE(spy.last().at(3).toString(), QStringLiteral("compare"));
        // "What residuals and LayerNorm buy": one 6-layer Transformer, wrapped four ways.
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:what-residuals-and-layernorm-buy")));
        const auto wrapped = spy.last().at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(wrapped.size(), std::size_t(4));
        QStringList wrappings;
        for (const auto& c : wrapped) {
            QCOMPARE(c.model.layers, 6);
            wrappings << QString::fromStdString(c.model.layerNorm) + (c.model.residual ? "" : "/no residual");
        }
        QCOMPARE(wrappings, (QStringList{"post", "pre", "none", "post/no residual"}));
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:temperature-and-top-p")));
        QCOMPARE(spy.last().at(0).value<std::vector<TrainConfig>>().size(), std::size_t(2));
        QCOMPARE(spy.last().at(3).toString(), QStringLiteral("explorer"));

        // "Is attention an explanation?": ESSAN, SSAN and the SSAN with uniform attention; it ends in the
        // Explorer's Faithfulness tab (MainWindow, on LiveComparisonView::lessonEnded).
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:is-attention-an-explanation")));
        const auto debate = spy.last().at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(debate.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(debate[0].model.model), QStringLiteral("essan"));
        QVERIFY(!debate[1].model.uniformAttention);
        QVERIFY(debate[2].model.uniformAttention);
        QCOMPARE(spy.last().at(3).toString(), QStringLiteral("faithfulness"));

        // "2018 vs pretrained": the thesis' SSAN + RPR and LSTM beside MiniLM with its encoder frozen,
        // on the synthetic sentences and on SST-fine.
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:2018-vs-pretrained")));
        const auto pretrained = spy.last().at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(pretrained.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(pretrained[2].model.model), QStringLiteral("minilm"));
        QVERIFY(pretrained[2].model.frozenEncoder);
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:2018-vs-pretrained:real")));
        for (const auto& c : spy.last().at(0).value<std::vector<TrainConfig>>())
            QCOMPARE(QString::fromStdString(c.dataset), QStringLiteral("sst-fine"));
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:is-attention-an-explanation:real")));
        const auto debateReal = spy.last().at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(debateReal.size(), std::size_t(3));
        for (const auto& c : debateReal)
            QCOMPARE(QString::fromStdString(c.dataset), QStringLiteral("sst-fine"));
        QVERIFY(debateReal[2].model.uniformAttention);
        QCOMPARE(spy.last().at(2).toStringList().front(), QString::fromUtf8("44.2 \u00b1 1.0% test accuracy (5 runs)"));
        // The translation lessons: their runs on one built-in task, each saying what it reached, and the
        // Explorer opened at the end (the alignment explorer, on the last run).
        for (const char* id : {"lesson:learning-to-align", "lesson:dot-general-concat", "lesson:which-head-aligns",
                               "lesson:right-answer-odd-alignment"}) {
            QVERIFY2(panel.presets()->choose(QString::fromLatin1(id)), id);
            const auto configs = spy.last().at(0).value<std::vector<TrainConfig>>();
            QVERIFY(configs.size() >= 2);
            for (const auto& c : configs) {
                QVERIFY(c.dataset.rfind("synthetic-", 0) == 0);
                QCOMPARE(c.validate(), std::string());
            }
            for (const QString& e : spy.last().at(2).toStringList())
                QVERIFY2(e.contains(QStringLiteral("test BLEU")), qPrintable(e));
            QCOMPARE(spy.last().at(3).toString(), QStringLiteral("explorer"));
        }
        QCOMPARE(child<QComboBox>(&panel, "modelCombo")->currentData().toString(), QStringLiteral("luong"));
        QCOMPARE(child<QComboBox>(&panel, "alignmentCombo")->currentData().toString(), QStringLiteral("global")); // the form shows the first
        spy.clear();
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:why-position-matters")));

        // The same lesson on real data: the presets RESULTS.md measured, with what each reached.
        QVERIFY(panel.presets()->choose(QStringLiteral("lesson:why-position-matters:real")));
        QCOMPARE(spy.count(), 2);
        const auto real = spy.at(1).at(0).value<std::vector<TrainConfig>>();
        QCOMPARE(real.size(), std::size_t(3));
        for (const auto& c : real) {
            QCOMPARE(QString::fromStdString(c.dataset), QStringLiteral("sst-fine"));
            QVERIFY(!c.orderDependent);
        }
        QCOMPARE(spy.at(1).at(1).toString(), QStringLiteral("Why position matters, on SST-fine"));
        const auto expected = spy.at(1).at(2).toStringList();
        QCOMPARE(expected, (QStringList{QString::fromUtf8("43.6 \u00b1 0.7% test accuracy (3 runs)"),
                                        QString::fromUtf8("42.5 \u00b1 0.9% test accuracy (3 runs)"),
                                        QString::fromUtf8("43.5 \u00b1 0.6% test accuracy (3 runs)")}));
        const QString description = child<QLabel>(&panel, "presetDescription")->text();
        QVERIFY2(description.contains(QStringLiteral("SSAN (no position): 43.6")) && description.contains(QStringLiteral("docs/RESULTS.md")),
                 qPrintable(description));
    }

    // Rows follow the dataset, the model and the optimizer; advanced ones only when asked for.
    void advancedRowsAndWhatApplies()
    {
        SetupPanel panel;
        panel.show();
        auto* advanced = child<QCheckBox>(&panel, "advancedBox");
        advanced->setChecked(false);
        choose(child<QComboBox>(&panel, "datasetCombo"), "sst-fine");
        QVERIFY(!rowShown(child<QCheckBox>(&panel, "phrasesBox"))); // advanced
        QVERIFY(rowShown(child<QLineEdit>(&panel, "embeddingsEdit")->parentWidget())); // basic
        advanced->setChecked(true);
        QVERIFY(rowShown(child<QCheckBox>(&panel, "phrasesBox")));
        QVERIFY(!rowShown(child<QSpinBox>(&panel, "windowSpin"))); // time series only
        QVERIFY(!rowShown(child<QDoubleSpinBox>(&panel, "momentumSpin"))); // SGD only
        choose(child<QComboBox>(&panel, "optimizerCombo"), "sgd");
        QVERIFY(rowShown(child<QDoubleSpinBox>(&panel, "momentumSpin")));
        QCOMPARE(child<QDoubleSpinBox>(&panel, "learningRateSpin")->value(), 0.1); // SGD's default rate
        choose(child<QComboBox>(&panel, "datasetCombo"), "synthetic-lag");
        QVERIFY(rowShown(child<QSpinBox>(&panel, "windowSpin")));
        QVERIFY(!rowShown(child<QLineEdit>(&panel, "embeddingsEdit")->parentWidget()));
        QVERIFY(!rowShown(child<QCheckBox>(&panel, "phrasesBox")));

        // Settings only the advanced part has reach the configuration.
        choose(child<QComboBox>(&panel, "datasetCombo"), "sst-binary");
        child<QCheckBox>(&panel, "phrasesBox")->setChecked(true);
        choose(child<QComboBox>(&panel, "scheduleCombo"), "cosine");
        child<QSpinBox>(&panel, "warmupSpin")->setValue(100);
        child<QDoubleSpinBox>(&panel, "clipNormSpin")->setValue(5.0);
        child<QSpinBox>(&panel, "patienceSpin")->setValue(4);
        choose(child<QComboBox>(&panel, "samplingCombo"), "epochs");
        child<QSpinBox>(&panel, "maxLengthSpin")->setValue(128);
        const TrainConfig c = panel.config();
        QVERIFY(c.phrases);
        QCOMPARE(QString::fromStdString(c.lrSchedule), QStringLiteral("cosine"));
        QCOMPARE(c.warmupSteps, 100);
        QCOMPARE(c.clipNorm, 5.0);
        QCOMPARE(c.patience, 4);
        QCOMPARE(QString::fromStdString(c.sampling), QStringLiteral("epochs"));
        QCOMPARE(c.model.maxLength, 128);
        QVERIFY(c.validate().empty());
    }

    // the form's rows come from the registry. For every model, with advanced settings shown and each
    // row's own condition met, every option of its registry entry has a row on screen, and no other option does.
    void everyRegistryOptionHasItsRow()
    {
        SetupPanel panel;
        panel.show();
        panel.setAdvancedShown(true);
        std::set<std::string> options;
        for (const auto& model : Registry::models())
            options.insert(model.options.begin(), model.options.end());
        // Each option belongs to exactly one row of the form.
        std::map<std::string, const FormSetting*> rowOf;
        for (const FormSection* section : panel.sections())
            for (const FormSetting& setting : section->settings())
                if (setting.option)
                    QVERIFY2(rowOf.emplace(setting.option, &setting).second, setting.option);
        for (const auto& option : options)
            QVERIFY2(rowOf.count(option), qPrintable(QStringLiteral("no row for the option ") + QString::fromStdString(option)));
        QVERIFY(options.size() >= 16);
        const std::map<TaskKind, const char*> datasetFor = {{TaskKind::Classification, "synthetic-sentiment"},
                                                            {TaskKind::Regression, "synthetic-lag"},
                                                            {TaskKind::Translation, "synthetic-copy"},
                                                            {TaskKind::LanguageModel, "synthetic-repeat"}};
        for (const auto& model : Registry::models()) {
            // ESSAN, which does both, on the series (its time-series rows).
            const TaskKind task = model.servesTask(TaskKind::Regression) ? TaskKind::Regression : model.task();
            choose(child<QComboBox>(&panel, "datasetCombo"), datasetFor.at(task));
            choose(child<QComboBox>(&panel, "modelCombo"), model.id.c_str());
            const auto has = [&](const std::string& o) { return std::count(model.options.begin(), model.options.end(), o) > 0; };
            if (has("alignment")) // the local window is a row of the local alignments
                choose(child<QComboBox>(&panel, "alignmentCombo"), "local-m");
            for (const auto& [option, setting] : rowOf) {
                const bool onScreen = setting->field->isVisibleTo(&panel);
                QVERIFY2(onScreen == has(option), qPrintable(QString::fromStdString(model.id + ": the row of " + option) +
                                                             (onScreen ? " is shown" : " is hidden")));
            }
        }
    }

    // The gradient and block switches: a preset fills their rows, the rows write the configuration back, and the
    // LayerNorm and residual rows leave a model without blocks untouched.
    void gradientAndBlockRows()
    {
        SetupPanel panel;
        QVERIFY(panel.presets()->choose(QStringLiteral("teach-residual-no-residual")));
        auto* gradients = child<QCheckBox>(&panel, "gradientNormsBox");
        auto* residual = child<QCheckBox>(&panel, "residualBox");
        auto* layerNorm = child<QComboBox>(&panel, "layerNormCombo");
        QVERIFY(gradients->isChecked());
        QVERIFY(!residual->isChecked());
        QCOMPARE(layerNorm->currentData().toString(), QStringLiteral("post"));
        layerNorm->setCurrentIndex(layerNorm->findData(QStringLiteral("none")));
        residual->setChecked(true);
        gradients->setChecked(false);
        TrainConfig c = panel.config();
        QCOMPARE(c.model.layerNorm, std::string("none"));
        QVERIFY(c.model.residual);
        QVERIFY(!c.gradientNorms);
        QVERIFY(panel.presets()->choose(QStringLiteral("teach-gates-rnn")));
        QVERIFY(gradients->isChecked());
        residual->setChecked(false); // hidden for an RNN: not written
        auto* window = child<QSpinBox>(&panel, "attentionWindowSpin");
        auto* globals = child<QSpinBox>(&panel, "globalTokensSpin");
        window->setValue(8); // likewise: an RNN has no attention to narrow
        globals->setValue(1);
        c = panel.config();
        QCOMPARE(c.model.model, std::string("rnn"));
        QVERIFY(c.model.residual);
        QVERIFY(c.model.layerNorm.empty());
        QCOMPARE(c.model.attentionWindow, 0);
        QCOMPARE(c.model.globalTokens, 0);
        QCOMPARE(c.validate(), std::string());
        // A Transformer takes the window and its global tokens; back to full attention, no global tokens.
        QVERIFY(panel.presets()->choose(QStringLiteral("teach-residual-post")));
        window->setValue(8);
        globals->setValue(1);
        c = panel.config();
        QCOMPARE(c.model.attentionWindow, 8);
        QCOMPARE(c.model.globalTokens, 1);
        QCOMPARE(c.validate(), std::string());
        window->setValue(0);
        QCOMPARE(window->text(), QStringLiteral("full attention"));
        c = panel.config();
        QCOMPARE(c.model.attentionWindow, 0);
        QCOMPARE(c.model.globalTokens, 0);
    }

    // Save as writes the JSON that `attnlab-cli train --config` reads (TrainPreset::fromFile), and opening
    // it fills the form again; a broken file is named in the message and changes nothing.
    void saveAsAndOpenRoundTrip()
    {
        SetupPanel panel;
        QVERIFY(panel.presets()->choose(QStringLiteral("teach-long-range-lstm")));
        child<QSpinBox>(&panel, "stepsSpin")->setValue(321);
        panel.setRepeats(2);
        const QString path = dir_.filePath(QStringLiteral("saved.json"));
        panel.saveConfigFile(path);
        const TrainPreset read = TrainPreset::fromFile(path.toStdString());
        QCOMPARE(read.repeats, 2);
        QCOMPARE(read.config.steps, 321);
        QCOMPARE(read.config.distance, 12);
        QCOMPARE(QString::fromStdString(read.config.model.model), QStringLiteral("lstm"));
        QVERIFY(panel.presets()->recentFiles().contains(QFileInfo(path).absoluteFilePath()));

        SetupPanel other;
        other.openConfigFile(path);
        QCOMPARE(child<QSpinBox>(&other, "stepsSpin")->value(), 321);
        QCOMPARE(child<QSpinBox>(&other, "distanceSpin")->value(), 12);
        QCOMPARE(other.repeats(), 2);

        QFile broken(dir_.filePath(QStringLiteral("broken.json")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write(R"({"steps": "many"})");
        broken.close();
        QSignalSpy messages(&other, &SetupPanel::message);
        other.openConfigFile(broken.fileName());
        QCOMPARE(messages.count(), 1);
        const QString text = messages.at(0).at(0).toString();
        QVERIFY2(text.contains(QStringLiteral("broken.json")) && text.contains(QStringLiteral("'steps'")), qPrintable(text));
        QCOMPARE(child<QSpinBox>(&other, "stepsSpin")->value(), 321);

        // A model of another task than its dataset's: refused naming the file and both kinds, the form kept.
        QFile otherTask(dir_.filePath(QStringLiteral("gpt-on-sentences.json")));
        QVERIFY(otherTask.open(QIODevice::WriteOnly));
        otherTask.write(R"({"dataset": "synthetic-sentiment", "model": "gpt", "steps": 50})");
        otherTask.close();
        other.openConfigFile(otherTask.fileName());
        QCOMPARE(messages.count(), 2);
        const QString refused = messages.at(1).at(0).toString();
        QVERIFY2(refused.contains(QStringLiteral("gpt-on-sentences.json")) &&
                     refused.contains(QStringLiteral(
                         "'gpt' is a language-model model; dataset 'synthetic-sentiment' is a classification dataset")),
                 qPrintable(refused));
        QCOMPARE(child<QSpinBox>(&other, "stepsSpin")->value(), 321);
        QCOMPARE(other.config().model.model, std::string("lstm"));
    }

    // The last configuration, the advanced switch and the dock layout come back after a restart.
    void settingsSurviveARestart()
    {
        const QString db = dir_.filePath(QStringLiteral("runs.sqlite"));
        {
            MainWindow window(db);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            choose(child<QComboBox>(&window, "modelCombo"), "essan");
            child<QSpinBox>(&window, "dModelSpin")->setValue(48);
            child<QSpinBox>(&window, "headsSpin")->setValue(4);
            child<QCheckBox>(&window, "advancedBox")->setChecked(true);
            child<QDockWidget>(&window, "runsDock")->hide();
            QVERIFY(window.close()); // saves
        }
        MainWindow window(db);
        window.restoreSettings();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(child<QComboBox>(&window, "modelCombo")->currentData().toString(), QStringLiteral("essan"));
        QCOMPARE(child<QSpinBox>(&window, "dModelSpin")->value(), 48);
        QCOMPARE(child<QSpinBox>(&window, "headsSpin")->value(), 4);
        QVERIFY(child<QCheckBox>(&window, "advancedBox")->isChecked());
        QVERIFY(child<QAction>(&window, "advancedAction")->isChecked());
        QVERIFY(child<QDockWidget>(&window, "runsDock")->isHidden());
        QSettings().clear();
    }

    // The toolbar's Train and Stop, Ctrl+Enter and Space; presentation mode (F11) scales and hides the
    // designer behind a summary line, and leaving it restores the window.
    void shortcutsAndPresentationMode()
    {
        const QString db = dir_.filePath(QStringLiteral("shortcuts.sqlite"));
        MainWindow window(db);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        choose(child<QComboBox>(&window, "datasetCombo"), "synthetic-sentiment");
        choose(child<QComboBox>(&window, "modelCombo"), "ssan");
        child<QSpinBox>(&window, "dModelSpin")->setValue(16);
        child<QSpinBox>(&window, "stepsSpin")->setValue(100000);
        child<QSpinBox>(&window, "evalEverySpin")->setValue(1000);
        auto* train = child<QPushButton>(&window, "trainButton");
        auto* stop = child<QPushButton>(&window, "stopButton");
        QVERIFY(train->isVisible() && stop->isVisible()); // in the toolbar, never below the fold

        child<QAction>(&window, "trainAction")->trigger(); // Ctrl+Enter
        QVERIFY(window.isTraining());
        QVERIFY(!train->isEnabled() && stop->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(child<QProgressBar>(&window, "trainingProgress")->value() > 0, 60000);
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        child<QTabWidget>(&window, "workspaceTabs")->setFocus();
        QTest::keyClick(child<QTabWidget>(&window, "workspaceTabs"), Qt::Key_Space); // Space stops
        QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 60000);
        QVERIFY(train->isEnabled() && !stop->isEnabled());
        {
            RunStore store(db.toStdString());
            QCOMPARE(store.listRuns().size(), std::size_t(1));
            QCOMPARE(static_cast<int>(store.listRuns().front().status), static_cast<int>(RunStatus::Cancelled));
        }

        const qreal before = window.font().pointSizeF();
        auto* designer = child<QDockWidget>(&window, "designerDock");
        auto* summary = child<QLabel>(&window, "designerSummary");
        QVERIFY(designer->isVisible());
        QVERIFY(!summary->isVisible());
        child<QAction>(&window, "presentationAction")->trigger(); // F11
        QVERIFY(!designer->isVisible());
        QVERIFY(summary->isVisible());
        QVERIFY2(summary->text().contains(QStringLiteral("SSAN")), qPrintable(summary->text()));
        QVERIFY(window.font().pointSizeF() >= 1.25 * before);
        QVERIFY(window.palette().color(QPalette::Window) == Qt::white || window.palette().color(QPalette::Window) == Qt::black);
        const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
        QDir().mkpath(shots);
        // Every permanent status-bar text is whole, at once and at a projector's size (they were cut
        // in the grab just after F11: the larger font, the old layout).
        const auto statusTextsCut = [&] {
            QString cut;
            for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
                if (label->isVisible() && !label->text().isEmpty() && label->width() < label->sizeHint().width())
                    cut += QStringLiteral("%1 (%2 px of %3) ").arg(label->text()).arg(label->width()).arg(label->sizeHint().width());
            return cut;
        };
        QVERIFY2(statusTextsCut().isEmpty(), qPrintable(statusTextsCut()));
        window.grab().save(shots + QStringLiteral("/presentation.png"));
        window.showNormal();
        window.resize(1280, 720);
        QVERIFY2(statusTextsCut().isEmpty(), qPrintable(statusTextsCut()));
        window.grab().save(shots + QStringLiteral("/presentation-1280x720.png"));
        child<QAction>(&window, "presentationAction")->trigger();
        QVERIFY(designer->isVisible());
        QVERIFY(!summary->isVisible());
        QCOMPARE(window.font().pointSizeF(), before);
    }

    // "Train on your own data": the import dialog's choice becomes the designer's dataset, and a run
    // trained on it stores the file and columns in its configuration.
    void ownDataFromTheImportDialog()
    {
        const QString tsv = dir_.filePath(QStringLiteral("reviews.tsv"));
        QFile f(tsv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("review\tsentiment\n");
        for (int i = 0; i < 60; ++i)
            f.write(QStringLiteral("%1 film number %2\t%3\n").arg(i % 2 ? "a good" : "a bad").arg(i).arg(i % 2 ? "pos" : "neg").toUtf8());
        f.close();
        const QString db = dir_.filePath(QStringLiteral("own.sqlite"));
        MainWindow window(db);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        child<QAction>(&window, "importOwnDataAction")->trigger();
        auto* dialog = window.findChild<DataImportDialog*>();
        QVERIFY(dialog);
        dialog->setFile(tsv);
        auto* ok = child<QDialogButtonBox>(dialog, "importButtons")->button(QDialogButtonBox::Ok);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isBusy() && ok->isEnabled(), 30000);
        QTest::mouseClick(ok, Qt::LeftButton);
        SetupPanel* setup = child<SetupPanel>(&window, "setupPanel");
        QCOMPARE(QString::fromStdString(setup->config().dataset), QStringLiteral("csv-text"));
        QCOMPARE(QString::fromStdString(setup->config().file), tsv);
        QVERIFY(child<QLabel>(&window, "ownDataLabel")->text().contains(QStringLiteral("reviews.tsv")));
        choose(child<QComboBox>(&window, "modelCombo"), "bow");
        child<QSpinBox>(&window, "stepsSpin")->setValue(20);
        child<QSpinBox>(&window, "evalEverySpin")->setValue(10);
        child<QAction>(&window, "trainAction")->trigger();
        QVERIFY(window.isTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining(), 120000);
        RunStore store(db.toStdString());
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(static_cast<int>(runs.front().status), static_cast<int>(RunStatus::Completed));
        const TrainConfig stored = TrainConfig::fromJson(runs.front().configJson);
        QCOMPARE(QString::fromStdString(stored.file), tsv);
        QCOMPARE(QString::fromStdString(stored.dataset), QStringLiteral("csv-text"));
    }

    // A lesson on real data, as a class sees it: SST-fine with GloVe, both presets at once, each panel saying
    // what docs/RESULTS.md measured for it while it trains, and the results strip keeping it beside the run.
    void realDataLessonShowsWhatWasMeasured()
    {
        REQUIRE_REAL_DATA(data);
        const QString db = dir_.filePath(QStringLiteral("real-lesson.sqlite"));
        MainWindow window(db);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(1280, 720);
        auto* live = child<LiveComparisonView>(&window, "liveComparisonView");
        QVERIFY(child<SetupPanel>(&window, "setupPanel")->presets()->choose(QStringLiteral("lesson:san-vs-rnn:real")));
        auto* compare = child<QPushButton>(&window, "compareButton");
        QVERIFY2(compare->text().contains(QStringLiteral("(2)")), qPrintable(compare->text()));
        QTest::mouseClick(compare, Qt::LeftButton);
        QVERIFY(live->isRunning());
        QCOMPARE(child<QLabel>(&window, "entryExpected0")->text(), QString::fromUtf8("expected: 43.5 \u00b1 0.6% test accuracy (3 runs)"));
        QCOMPARE(child<QLabel>(&window, "entryExpected1")->text(), QString::fromUtf8("expected: 44.0 \u00b1 1.0% test accuracy (3 runs)"));
        QVERIFY(child<QLabel>(&window, "entryExpected0")->isVisible());
        // Until the first dev evaluation (step 100) of both, on real sentences: the SSAN's attention, the LSTM's
        // dev point (it has no attention). Then the picture for the README.
        const auto devPoints = [&](int run) {
            const auto graphs = window.findChildren<QCPGraph*>(QStringLiteral("devMetricGraph%1").arg(run));
            return graphs.size() == 1 ? graphs.first()->dataCount() : 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(child<AttentionHeatmap>(&window, "entryHeatmap0")->hasSnapshot() && devPoints(1) >= 1, 180000);
        const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
        QDir().mkpath(shots);
        QVERIFY(window.grab().save(shots + QStringLiteral("/real-lesson-1280x720.png")));
        live->stopAll();
        QTRY_VERIFY_WITH_TIMEOUT(!live->isRunning(), 60000);
        RunStore store(db.toStdString());
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), std::size_t(2));
        for (const auto& r : runs) {
            QCOMPARE(QString::fromStdString(r.dataset), QStringLiteral("sst-fine"));
            QCOMPARE(static_cast<int>(r.status), static_cast<int>(RunStatus::Cancelled));
        }
    }

    // Side by side from the window: a lesson fills the Compare button; configurations added from the form
    // train at the same time, tagged with their comparison; repeats train seed after seed with mean ± std.
    void compareAndRepeatsFromTheWindow()
    {
        const QString db = dir_.filePath(QStringLiteral("compare.sqlite"));
        MainWindow window(db);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(1280, 720); // a projector
        auto* compare = child<QPushButton>(&window, "compareButton");
        auto* live = child<LiveComparisonView>(&window, "liveComparisonView");
        const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
        QDir().mkpath(shots);
        QVERIFY(child<SetupPanel>(&window, "setupPanel")->presets()->choose(QStringLiteral("lesson:why-position-matters")));
        QVERIFY2(compare->text().contains(QStringLiteral("(3)")), qPrintable(compare->text()));
        child<QCheckBox>(&window, "advancedBox")->setChecked(true);
        QVERIFY(window.grab().save(shots + QStringLiteral("/designer-1280x720.png")));
        child<QCheckBox>(&window, "advancedBox")->setChecked(false);

        // The lesson "SAN vs RNN" as a class sees it: both presets at once, to the end.
        QVERIFY(child<SetupPanel>(&window, "setupPanel")->presets()->choose(QStringLiteral("lesson:san-vs-rnn")));
        QTest::mouseClick(compare, Qt::LeftButton);
        QVERIFY(live->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!live->isRunning(), 240000);
        QVERIFY(window.grab().save(shots + QStringLiteral("/side-by-side-1280x720.png")));
        QCOMPARE(window.size(), QSize(1280, 720)); // everything fits a projector
        const QString lessonTag = live->comparisonTag();

        choose(child<QComboBox>(&window, "datasetCombo"), "synthetic-sentiment");
        child<QCheckBox>(&window, "orderDependentBox")->setChecked(false);
        for (const char* model : {"ssan", "lstm"}) {
            choose(child<QComboBox>(&window, "modelCombo"), model);
            child<QSpinBox>(&window, "dModelSpin")->setValue(16);
            child<QSpinBox>(&window, "stepsSpin")->setValue(60);
            child<QSpinBox>(&window, "evalEverySpin")->setValue(30);
            child<QAction>(&window, "addToComparisonAction")->trigger(); // Ctrl+B
        }
        QVERIFY2(compare->text().contains(QStringLiteral("(2)")), qPrintable(compare->text()));
        QTest::mouseClick(compare, Qt::LeftButton);
        QVERIFY(live->isRunning());
        QCOMPARE(child<QTabWidget>(&window, "workspaceTabs")->currentWidget(), static_cast<QWidget*>(live));
        QVERIFY(live->comparisonTag() != lessonTag);
        QTRY_VERIFY_WITH_TIMEOUT(!live->isRunning(), 180000);
        {
            RunStore store(db.toStdString());
            QCOMPARE(store.listRuns().size(), std::size_t(4));
            std::vector<RunRecord> runs;
            for (const auto& r : store.listRuns())
                if (r.tags == std::vector<std::string>{live->comparisonTag().toStdString()})
                    runs.push_back(r);
            QCOMPARE(runs.size(), std::size_t(2));
            QStringList models;
            for (const auto& r : runs) {
                models << QString::fromStdString(r.model);
                QCOMPARE(static_cast<int>(r.status), static_cast<int>(RunStatus::Completed));
                QCOMPARE(r.tags, std::vector<std::string>{live->comparisonTag().toStdString()});
            }
            models.sort();
            QCOMPARE(models, (QStringList{"lstm", "ssan"}));
        }

        // Repeats: two runs of the form's configuration, seeds 5 and 6, then mean ± std.
        choose(child<QComboBox>(&window, "modelCombo"), "bow");
        child<QSpinBox>(&window, "seedSpin")->setValue(5);
        child<QSpinBox>(&window, "repeatsSpin")->setValue(2);
        child<QAction>(&window, "trainAction")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isTraining() && child<QPushButton>(&window, "trainButton")->isEnabled(), 120000);
        RunStore store(db.toStdString());
        std::vector<std::uint64_t> seeds;
        for (const auto& r : store.listRuns())
            if (r.model == "bow")
                seeds.push_back(r.seed);
        std::sort(seeds.begin(), seeds.end());
        QCOMPARE(seeds, (std::vector<std::uint64_t>{5, 6}));
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("2 runs (seeds 5…6)")),
                 qPrintable(window.statusBar()->currentMessage()));
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(TestDesigner)
#include "test_designer.moc"
