#include "ui/setup/DataSection.h"

#include "core/data/DataLocator.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/WordEmbeddings.h"
#include "ui/StdStrings.h"
#include "ui/setup/DatasetStatisticsCache.h"
#include "ui/setup/FormWidgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>

#include <exception>
#include <vector>

namespace attnlab::ui {

using namespace form;

DataSection::DataSection(QWidget* parent) : FormSection(tr("Data"), parent)
{
    setObjectName(QStringLiteral("dataSection"));
    statistics_ = new DatasetStatisticsCache(this);
    statistics_->setObjectName(QStringLiteral("datasetStatisticsCache"));
    addDatasetRows();
    addTextRows();
    addFileRows();
    addTranslationRows();
    addLanguageModelRows();
    connect(statistics_, &DatasetStatisticsCache::ready, this, [this](const QString& id) {
        if (id == datasetId())
            showStatistics();
    });
    connect(dataset_, &QComboBox::currentIndexChanged, this, [this] {
        showStatistics();
        showCoverage();
    });
    connect(embeddings_, &QLineEdit::editingFinished, this, &DataSection::showCoverage);
}

QString DataSection::datasetId() const { return dataset_->currentData().toString(); }

void DataSection::addDatasetRows()
{
    // The data folder: a setting (remembered), before ATTNLAB_DATA_DIR and the user's data folder.
    dataDir_ = new QLineEdit(QSettings().value(QStringLiteral("dataDir")).toString(), this);
    dataDir_->setObjectName(QStringLiteral("dataDirEdit"));
    dataDir_->setPlaceholderText(qEnvironmentVariableIsSet("ATTNLAB_DATA_DIR")
                                     ? tr("ATTNLAB_DATA_DIR (%1)").arg(qEnvironmentVariable("ATTNLAB_DATA_DIR"))
                                     : tr("~/.local/share/attnlab/datasets"));
    dataDir_->setToolTip(tr("Folder with the real datasets (laid out as in docs/DATASETS.md); empty: "
                            "ATTNLAB_DATA_DIR, then ~/.local/share/attnlab/datasets"));
    statistics_->setDataDir(dataDir_->text());
    auto* browse = new QToolButton(this);
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose the data folder"));
    auto applyDataDir = [this] {
        QSettings().setValue(QStringLiteral("dataDir"), dataDir_->text());
        statistics_->setDataDir(dataDir_->text());
        coverageCache_.clear();
        coverageRunner_->discard(); // read from the old files
        showStatistics();
    };
    connect(dataDir_, &QLineEdit::editingFinished, this, applyDataDir);
    connect(browse, &QToolButton::clicked, this, [this, applyDataDir] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Data folder"), dataDir_->text());
        if (!dir.isEmpty()) {
            dataDir_->setText(dir);
            applyDataDir();
        }
    });
    add({{"data_dir"},
         tr("Data folder"),
         row(this, {dataDir_, browse}),
         false,
         nullptr,
         {},
         [this](TrainConfig& c, const ModelSpec*) { c.dataDir = dataDir().toStdString(); },
         [this](const TrainConfig& c) {
             if (!c.dataDir.empty())
                 dataDir_->setText(qs(c.dataDir));
         }});

    dataset_ = new QComboBox(this);
    dataset_->setObjectName(QStringLiteral("datasetCombo"));
    for (const auto& entry : Registry::datasets())
        addEntry(dataset_, entry);
    auto* ownData = new QPushButton(tr("Your own data…"), this);
    ownData->setObjectName(QStringLiteral("ownDataButton"));
    ownData->setToolTip(tr("Train on your own CSV/TSV file of texts and labels, of time series, or of sentence pairs "
                           "to translate, with a preview"));
    connect(ownData, &QPushButton::clicked, this, &DataSection::importRequested);
    add({{"dataset"},
         tr("Dataset"),
         row(this, {dataset_, ownData}),
         false,
         nullptr,
         {},
         [this](TrainConfig& c, const ModelSpec*) { c.dataset = datasetId().toStdString(); },
         {}});
    ownDataLabel_ = new QLabel(this);
    ownDataLabel_->setObjectName(QStringLiteral("ownDataLabel"));
    ownDataLabel_->setWordWrap(true);
    add({{},
         QString(),
         ownDataLabel_,
         false,
         nullptr,
         [this](const ModelSpec*, TaskKind) {
             return datasetId().startsWith(QLatin1String("csv-")) && !ownDataLabel_->text().isEmpty();
         },
         {},
         {}});
    datasetStatistics_ = new QLabel(this);
    datasetStatistics_->setObjectName(QStringLiteral("datasetStatisticsLabel"));
    datasetStatistics_->setWordWrap(true);
    datasetStatistics_->setTextFormat(Qt::RichText);
    datasetStatistics_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    add({{}, QString(), datasetStatistics_, false, nullptr, {}, {}, {}});
}

void DataSection::addTextRows()
{
    // Pre-trained word vectors: the text classifiers' (not a time series', not a translation's).
    const auto words = [](const ModelSpec*, TaskKind task) { return task == TaskKind::Classification; };
    embeddings_ = new QLineEdit(this);
    embeddings_->setObjectName(QStringLiteral("embeddingsEdit"));
    embeddings_->setPlaceholderText(tr("none: random vectors"));
    embeddings_->setToolTip(tr("Pre-trained word vectors (GloVe, word2vec text or binary, fastText; .gz too). A path relative "
                               "to the data folder works, as the thesis presets use it."));
    auto* browseVectors = new QToolButton(this);
    browseVectors->setText(QStringLiteral("…"));
    browseVectors->setToolTip(tr("Choose a word-vector file"));
    connect(browseVectors, &QToolButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Word vectors"), dataDir_->text(),
                                                          tr("Word vectors (*.txt *.vec *.bin *.gz);;All files (*)"));
        if (!file.isEmpty()) {
            embeddings_->setText(file); // the form's watch on the edit says it changed
            showCoverage();
        }
    });
    add({{"embeddings"},
         tr("Word vectors"),
         row(this, {embeddings_, browseVectors}),
         false,
         nullptr,
         words,
         [this](TrainConfig& c, const ModelSpec*) { c.embeddingsPath = embeddings_->text().trimmed().toStdString(); },
         [this](const TrainConfig& c) { embeddings_->setText(qs(c.embeddingsPath)); }});
    coverage_ = new QLabel(this);
    coverage_->setObjectName(QStringLiteral("embeddingsCoverageLabel"));
    coverage_->setWordWrap(true);
    coverageRunner_ = new LatestRequestRunner(this);
    connect(coverageRunner_, &LatestRequestRunner::failed, this,
            [this](const QString& error) { coverage_->setText(tr("Cannot read the word vectors: %1").arg(error)); });
    add({{},
         QString(),
         coverage_,
         false,
         nullptr,
         [this, words](const ModelSpec* m, TaskKind task) {
             return words(m, task) && !embeddings_->text().trimmed().isEmpty();
         },
         {},
         {}});
    auto* frozen = check(this, "embeddingsFrozenBox", tr("keep fixed"), tr("Do not fine-tune the pre-trained vectors"));
    add({{"embeddings_frozen"},
         tr("Vectors"),
         row(this, {frozen}, true),
         true,
         nullptr,
         words,
         [frozen](TrainConfig& c, const ModelSpec*) { c.embeddingsFrozen = frozen->isChecked(); },
         [frozen](const TrainConfig& c) { frozen->setChecked(c.embeddingsFrozen); }});
    auto* oovRange = real(this, "oovRangeSpin", 0.0, 5.0, 3, 0.05);
    oovRange->setToolTip(tr("Words without a pre-trained vector start uniform in [-a, a] (thesis: 0.25)"));
    add({{"oov_range"},
         tr("OOV range"),
         oovRange,
         true,
         nullptr,
         words,
         [oovRange](TrainConfig& c, const ModelSpec*) { c.oovRange = oovRange->value(); },
         [oovRange](const TrainConfig& c) { oovRange->setValue(c.oovRange); }});
    auto* phrases = check(this, "phrasesBox", tr("train on every labelled phrase"), tr("SST's phrase level (thesis 5.2.1, Table 5.6)"));
    const auto sst = [this] { return datasetId().startsWith(QLatin1String("sst-")); };
    add({{"phrases"},
         tr("SST"),
         phrases,
         true,
         nullptr,
         [sst](const ModelSpec*, TaskKind) { return sst(); },
         [phrases, sst](TrainConfig& c, const ModelSpec*) { c.phrases = sst() && phrases->isChecked(); },
         [phrases](const TrainConfig& c) { phrases->setChecked(c.phrases); }});
    auto* lowercase = check(this, "lowercaseBox", tr("lowercase every token"), QString());
    add({{"lowercase"},
         tr("Tokens"),
         lowercase,
         true,
         nullptr,
         [](const ModelSpec*, TaskKind task) { return task != TaskKind::Regression; },
         [lowercase](TrainConfig& c, const ModelSpec*) { c.lowercase = lowercase->isChecked(); },
         [lowercase](const TrainConfig& c) { lowercase->setChecked(c.lowercase); }});
    auto* tokenizer = choices(this, "tokenizerCombo", {{tr("PTB (words and punctuation)"), "ptb"}, {tr("whitespace"), "whitespace"},
                                                        {tr("tweets"), "tweet"}});
    const auto ownText = [this] { return datasetId() == QLatin1String("csv-text"); };
    add({{"tokenizer"},
         tr("Tokenizer"),
         tokenizer,
         true,
         nullptr,
         [ownText](const ModelSpec*, TaskKind) { return ownText(); },
         [tokenizer, ownText](TrainConfig& c, const ModelSpec*) {
             c.tokenizer = ownText() && currentId(tokenizer) != "ptb" ? currentId(tokenizer) : std::string();
         },
         [tokenizer](const TrainConfig& c) { selectData(tokenizer, c.tokenizer.empty() ? "ptb" : c.tokenizer); }});
    const auto synthetic = [this] { return datasetId() == QLatin1String("synthetic-sentiment"); };
    const auto onSynthetic = [synthetic](const ModelSpec*, TaskKind) { return synthetic(); };
    auto* order = check(this, "orderDependentBox", tr("label depends on clause order"),
                        tr("Synthetic sentences whose label changes with the order of their clauses: a model without positions cannot learn them"));
    add({{"order_dependent"},
         tr("Order"),
         order,
         false,
         nullptr,
         onSynthetic,
         [order, synthetic](TrainConfig& c, const ModelSpec*) { c.orderDependent = synthetic() && order->isChecked(); },
         [order](const TrainConfig& c) { order->setChecked(c.orderDependent); }});
    auto* distance = spin(this, "distanceSpin", 0, 200);
    distance->setSpecialValueText(tr("random (0–2)"));
    distance->setToolTip(tr("Filler words between the clauses that decide the label (long-range dependencies)"));
    add({{"distance"},
         tr("Distance"),
         distance,
         false,
         nullptr,
         onSynthetic,
         [distance, synthetic](TrainConfig& c, const ModelSpec*) { c.distance = synthetic() ? distance->value() : 0; },
         [distance](const TrainConfig& c) { distance->setValue(c.distance); }});
}

void DataSection::addFileRows()
{
    auto* window = spin(this, "windowSpin", 1, 1000);
    window->setToolTip(tr("Time steps T per example"));
    add({{"window"},
         tr("Window"),
         window,
         false,
         nullptr,
         [](const ModelSpec*, TaskKind task) { return task == TaskKind::Regression; },
         [window](TrainConfig& c, const ModelSpec*) { c.window = window->value(); },
         [window](const TrainConfig& c) { window->setValue(c.window); }});
    auto* horizon = spin(this, "horizonSpin", 1, 1000);
    horizon->setToolTip(tr("Steps ahead each window predicts at once: y_T .. y_{T+H-1}, errors reported per step ahead"));
    add({{"horizon"},
         tr("Horizon"),
         horizon,
         false,
         nullptr,
         [](const ModelSpec*, TaskKind task) { return task == TaskKind::Regression; },
         [horizon](TrainConfig& c, const ModelSpec*) { c.horizon = horizon->value(); },
         [horizon](const TrainConfig& c) { horizon->setValue(c.horizon); }});
    auto* lag = spin(this, "lagSpin", 0, 100);
    lag->setToolTip(tr("The known lag at which the target follows its driver"));
    add({{"lag"},
         tr("Lag"),
         lag,
         true,
         nullptr,
         [this](const ModelSpec*, TaskKind) { return datasetId() == QLatin1String("synthetic-lag"); },
         [lag](TrainConfig& c, const ModelSpec*) { c.lag = lag->value(); },
         [lag](const TrainConfig& c) { lag->setValue(c.lag); }});
    auto* quoting = choices(this, "quotingCombo", {{tr("auto (off for tab-separated)"), "auto"}, {tr("on"), "on"}, {tr("off"), "off"}});
    add({{"quoting"},
         tr("Quotes"),
         quoting,
         true,
         nullptr,
         [this](const ModelSpec*, TaskKind) { return datasetId().startsWith(QLatin1String("csv-")); },
         [quoting](TrainConfig& c, const ModelSpec*) { c.quoting = currentId(quoting); },
         [quoting](const TrainConfig& c) { selectData(quoting, c.quoting); }});
    auto* missing = choices(this, "missingCombo", {{tr("error"), "error"}, {tr("drop the row"), "drop"}, {tr("last value"), "ffill"},
                                                   {tr("interpolate"), "interpolate"}});
    add({{"missing_values"},
         tr("Missing cells"),
         missing,
         true,
         nullptr,
         [this](const ModelSpec*, TaskKind) {
             return datasetId() == QLatin1String("csv-series") || datasetId() == QLatin1String("sml2010");
         },
         [missing](TrainConfig& c, const ModelSpec*) { c.missingValues = currentId(missing); },
         [missing](const TrainConfig& c) { selectData(missing, c.missingValues); }});
    auto* categorical = choices(this, "categoricalCombo", {{tr("skip with a note"), "skip"}, {tr("one-hot"), "onehot"}});
    add({{"categorical"},
         tr("Text columns"),
         categorical,
         true,
         nullptr,
         [this](const ModelSpec*, TaskKind) { return datasetId() == QLatin1String("csv-series"); },
         [categorical](TrainConfig& c, const ModelSpec*) { c.categorical = currentId(categorical); },
         [categorical](const TrainConfig& c) { selectData(categorical, c.categorical); }});
}

void DataSection::addTranslationRows()
{
    // Written for a translation dataset only, so other runs keep the defaults and their JSON stays as it was.
    const auto multi30k = [this] { return datasetId() == QLatin1String("multi30k"); };
    const auto pairText = [this] { return datasetId() == QLatin1String("multi30k") || datasetId() == QLatin1String("csv-pairs"); };
    const auto generated = [this, pairText] {
        const RegistryEntry* entry = currentEntry(dataset_, Registry::datasets());
        return entry && entry->task == TaskKind::Translation && !pairText();
    };
    const std::initializer_list<std::pair<QString, const char*>> languages = {{tr("English"), "en"}, {tr("German"), "de"}, {tr("French"), "fr"}};
    auto* source = choices(this, "sourceLanguageCombo", languages);
    auto* target = choices(this, "targetLanguageCombo", languages);
    add({{"source_language", "target_language"},
         tr("Languages"),
         row(this, {source, new QLabel(QStringLiteral("→"), this), target}, true),
         false,
         nullptr,
         [multi30k](const ModelSpec*, TaskKind) { return multi30k(); },
         [source, target, multi30k](TrainConfig& c, const ModelSpec*) {
             if (multi30k()) {
                 c.sourceLanguage = currentId(source);
                 c.targetLanguage = currentId(target);
             }
         },
         [source, target](const TrainConfig& c) {
             selectData(source, c.sourceLanguage);
             selectData(target, c.targetLanguage);
         }});
    auto* subwords = choices(this, "subwordsCombo", {{tr("words"), ""}, {tr("BPE pieces"), "bpe"}, {tr("unigram pieces"), "unigram"}});
    subwords->setToolTip(tr("Words as the tokenizer splits them, or SentencePiece pieces learnt on the training split "
                            "(one model a side, kept with the weights)"));
    auto* vocabulary = spin(this, "subwordVocabularySpin", 50, 64000, 500);
    vocabulary->setToolTip(tr("About how many pieces each side's SentencePiece model has"));
    vocabulary->setEnabled(false);
    connect(subwords, &QComboBox::currentIndexChanged, this, [subwords, vocabulary] { vocabulary->setEnabled(!currentId(subwords).empty()); });
    add({{"subwords", "subword_vocabulary"},
         tr("Tokens as"),
         row(this, {subwords, vocabulary}, true),
         false,
         nullptr,
         [pairText](const ModelSpec*, TaskKind) { return pairText(); },
         [subwords, vocabulary, pairText](TrainConfig& c, const ModelSpec*) {
             if (!pairText())
                 return;
             c.subwords = currentId(subwords);
             if (!c.subwords.empty())
                 c.subwordVocabulary = vocabulary->value();
         },
         [subwords, vocabulary](const TrainConfig& c) {
             selectData(subwords, c.subwords);
             vocabulary->setValue(c.subwordVocabulary);
         }});
    auto* train = spin(this, "pairsTrainSpin", 1, 1'000'000, 1000);
    auto* dev = spin(this, "pairsDevSpin", 1, 100'000, 100);
    auto* test = spin(this, "pairsTestSpin", 1, 100'000, 100);
    for (QSpinBox* s : {train, dev, test})
        s->setToolTip(tr("Generated pairs: train, dev, test"));
    add({{"translation_train", "translation_dev", "translation_test"},
         tr("Pairs"),
         row(this, {train, dev, test}, true),
         true,
         nullptr,
         [generated](const ModelSpec*, TaskKind) { return generated(); },
         [train, dev, test, generated](TrainConfig& c, const ModelSpec*) {
             if (!generated())
                 return;
             c.translationTrain = train->value();
             c.translationDev = dev->value();
             c.translationTest = test->value();
         },
         [train, dev, test](const TrainConfig& c) {
             train->setValue(c.translationTrain);
             dev->setValue(c.translationDev);
             test->setValue(c.translationTest);
         }});
    auto* fewest = spin(this, "minWordsSpin", 1, 500);
    auto* most = spin(this, "maxWordsSpin", 1, 500);
    fewest->setToolTip(tr("Words per generated source sentence, fewest"));
    most->setToolTip(tr("Words per generated source sentence, most (reversal's test sentences are longer: up to twice this)"));
    const auto sized = [this, generated] { return generated() && datasetId() != QLatin1String("synthetic-dates"); };
    add({{"sequence_min_length", "sequence_max_length"},
         tr("Words"),
         row(this, {fewest, most}, true),
         true,
         nullptr,
         [sized](const ModelSpec*, TaskKind) { return sized(); },
         [fewest, most, sized](TrainConfig& c, const ModelSpec*) {
             if (!sized())
                 return;
             c.sequenceMinLength = fewest->value();
             c.sequenceMaxLength = most->value();
         },
         [fewest, most](const TrainConfig& c) {
             fewest->setValue(c.sequenceMinLength);
             most->setValue(c.sequenceMaxLength);
         }});
    auto* longest = spin(this, "maxPairLengthSpin", 0, 100000);
    longest->setSpecialValueText(tr("none"));
    longest->setToolTip(tr("Training pairs with a side longer than this are left out (counted in the run's notes)"));
    add({{"max_pair_length"},
         tr("Longest pair"),
         longest,
         true,
         nullptr,
         [pairText](const ModelSpec*, TaskKind) { return pairText(); },
         [longest, pairText](TrainConfig& c, const ModelSpec*) {
             if (pairText())
                 c.maxPairLength = longest->value();
         },
         [longest](const TrainConfig& c) { longest->setValue(c.maxPairLength); }});
}

// Language models: your text file and how it becomes tokens; the repeated sequences' sizes.
void DataSection::addLanguageModelRows()
{
    const auto ownText = [this] { return datasetId() == QLatin1String("text-file"); };
    const auto sentences = [this] { return datasetId() == QLatin1String("multi30k-lm"); };
    auto* language = choices(this, "lmLanguageCombo", {{tr("English"), "en"}, {tr("German"), "de"}, {tr("French"), "fr"}});
    language->setToolTip(tr("Which language's descriptions the model learns to write"));
    add({{"target_language"},
         tr("Language"),
         language,
         false,
         nullptr,
         [sentences](const ModelSpec*, TaskKind) { return sentences(); },
         [language, sentences](TrainConfig& c, const ModelSpec*) {
             if (sentences())
                 c.targetLanguage = currentId(language);
         },
         [language](const TrainConfig& c) { selectData(language, c.targetLanguage); }});
    auto* file = new QLineEdit(this);
    file->setObjectName(QStringLiteral("textFileEdit"));
    file->setPlaceholderText(tr("a UTF-8 text file: a book, your notes, code"));
    auto* browse = new QToolButton(this);
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose a text file"));
    connect(browse, &QToolButton::clicked, this, [this, file] {
        const QString chosen = QFileDialog::getOpenFileName(this, tr("Text file"), file->text(), tr("Text (*.txt *.md *.gz);;All files (*)"));
        if (!chosen.isEmpty()) {
            file->setText(chosen);
            emit file->editingFinished();
        }
    });
    add({{"file"},
         tr("Text file"),
         row(this, {file, browse}),
         false,
         nullptr,
         [ownText](const ModelSpec*, TaskKind) { return ownText(); },
         [file, ownText](TrainConfig& c, const ModelSpec*) {
             if (ownText())
                 c.file = file->text().toStdString();
         },
         [file](const TrainConfig& c) {
             if (c.dataset == "text-file")
                 file->setText(qs(c.file));
         }});
    // Pieces carry their SentencePiece kind in the choice's id ("pieces-bpe"): one combo for what a user picks at once.
    auto* unit = choices(this, "lmUnitCombo", {{tr("characters"), "characters"}, {tr("words"), "words"},
                                               {tr("BPE pieces"), "pieces-bpe"}, {tr("unigram pieces"), "pieces-unigram"}});
    unit->setToolTip(tr("What the model predicts one at a time: each character, each word, or each SentencePiece piece learnt "
                        "on the training text (kept with the weights); a line end is a token of its own"));
    auto* pieces = spin(this, "lmPiecesSpin", 50, 64000, 500);
    pieces->setValue(2000);
    pieces->setToolTip(tr("About how many pieces the SentencePiece model has (fewer where the text has fewer)"));
    pieces->setEnabled(false);
    connect(unit, &QComboBox::currentIndexChanged, this, [unit, pieces] { pieces->setEnabled(currentId(unit).rfind("pieces", 0) == 0); });
    add({{"lm_unit", "subwords", "subword_vocabulary"},
         tr("Tokens"),
         row(this, {unit, pieces}, true),
         false,
         nullptr,
         [ownText, sentences](const ModelSpec*, TaskKind) { return ownText() || sentences(); },
         [unit, pieces, ownText, sentences](TrainConfig& c, const ModelSpec*) {
             if (!ownText() && !sentences())
                 return;
             const std::string id = currentId(unit);
             const bool split = id.rfind("pieces-", 0) == 0;
             c.lmUnit = split ? "pieces" : id;
             c.subwords = split ? id.substr(7) : "";
             if (split)
                 c.subwordVocabulary = pieces->value();
         },
         [unit, pieces](const TrainConfig& c) {
             selectData(unit, c.lmUnit == "pieces" ? "pieces-" + (c.subwords.empty() ? std::string("bpe") : c.subwords) : c.lmUnit);
             if (c.lmUnit == "pieces")
                 pieces->setValue(c.subwordVocabulary);
         }});
    const auto repeat = [this] { return datasetId() == QLatin1String("synthetic-repeat"); };
    auto* length = spin(this, "repeatLengthSpin", 2, 256);
    length->setToolTip(tr("Random symbols before the sequence repeats"));
    auto* symbols = spin(this, "repeatVocabularySpin", 2, 10000);
    symbols->setToolTip(tr("Distinct symbols the sequences are drawn from"));
    add({{"repeat_length", "repeat_vocabulary"},
         tr("Sequence"),
         row(this, {length, symbols}, true),
         true,
         nullptr,
         [repeat](const ModelSpec*, TaskKind) { return repeat(); },
         [length, symbols, repeat](TrainConfig& c, const ModelSpec*) {
             if (!repeat())
                 return;
             c.repeatLength = length->value();
             c.repeatVocabulary = symbols->value();
         },
         [length, symbols](const TrainConfig& c) {
             length->setValue(c.repeatLength);
             symbols->setValue(c.repeatVocabulary);
         }});
}

void DataSection::dataFilesChanged()
{
    statistics_->clear();
    coverageCache_.clear();
    coverageRunner_->discard(); // read from the old files
    showStatistics();
    showCoverage();
}

QString DataSection::dataDir() const { return dataDir_->text().trimmed(); }

TrainConfig DataSection::base() const
{
    const QString dataset = dataset_->currentData().toString();
    TrainConfig config = dataset.startsWith(QLatin1String("csv-")) ? ownData_ : TrainConfig{};
    config.dataset = dataset.toStdString();
    config.dataDir = dataDir().toStdString();
    return config;
}

void DataSection::selectDataset(const std::string& id) { selectData(dataset_, id); }

void DataSection::read(const TrainConfig& config)
{
    FormSection::read(config);
    if (config.dataset.rfind("csv-", 0) == 0)
        setOwnData(qs(config.dataset), config.datasetOptions());
}

void DataSection::showStatistics()
{
    const QString id = dataset_->currentData().toString();
    if (id.startsWith(QLatin1String("csv-"))) {
        datasetStatistics_->setText(ownData_.file.empty() && ownData_.trainFile.empty()
                                        ? tr("<i>Choose your file with “Your own data…”.</i>")
                                        : QString());
        datasetStatistics_->setToolTip(QString());
        return;
    }
    if (const auto* entry = statistics_->cached(id)) {
        datasetStatistics_->setText(entry->html);
        datasetStatistics_->setToolTip(entry->summary);
        return;
    }
    datasetStatistics_->setText(tr("<i>Computing the statistics of %1…</i>").arg(dataset_->currentText().toHtmlEscaped()));
    datasetStatistics_->setToolTip(QString());
    statistics_->request(id);
}

void DataSection::showCoverage()
{
    // How many of the dataset's words the vectors cover: loading both takes seconds, so on a worker thread,
    // once per (dataset, file); the latest request wins.
    TrainConfig c = base();
    write(c, nullptr); // no data row depends on the model
    coverage_->setVisible(!c.embeddingsPath.empty());
    if (c.embeddingsPath.empty())
        return;
    const QString key = qs(c.dataset + "|" + c.embeddingsPath);
    if (coverageCache_.contains(key)) {
        coverage_->setText(coverageCache_.value(key));
        return;
    }
    coverage_->setText(tr("<i>Computing the coverage of the word vectors…</i>"));
    // The latest (dataset, file) wins; a failure to read them is the row's text, as a result is.
    coverageRunner_->request([this, c, key]() -> LatestRequestRunner::Delivery {
        QString text;
        const LoadedDataset data = DatasetCatalog::loadAny(c.dataset, c.datasetOptions());
        if (data.regression) {
            text = tr("Word vectors apply to text datasets only; this one is a time series.");
        } else {
            const auto vectors = WordEmbeddings::load(DataLocator::locateFile(c.embeddingsPath, c.dataDir));
            const auto coverage = vectors.coverage({&data.text.train, &data.text.dev, &data.text.test});
            text = tr("Covers %1% of the word types and %2% of the tokens (%3-d vectors)")
                       .arg(100.0 * coverage.typeRate(), 0, 'f', 1)
                       .arg(100.0 * coverage.tokenRate(), 0, 'f', 1)
                       .arg(vectors.dimension());
        }
        return [this, key, text] {
            coverageCache_.insert(key, text);
            coverage_->setText(text);
        };
    });
}

void DataSection::setOwnData(const QString& datasetId, const DatasetOptions& file)
{
    ownData_ = TrainConfig{};
    ownData_.file = file.file;
    ownData_.trainFile = file.trainFile;
    ownData_.devFile = file.devFile;
    ownData_.testFile = file.testFile;
    ownData_.textColumn = file.textColumn;
    ownData_.labelColumn = file.labelColumn;
    ownData_.targetColumn = file.targetColumn;
    ownData_.sourceColumn = file.sourceColumn;
    ownData_.driverColumns = file.driverColumns;
    ownData_.delimiter = file.delimiter == '\t' ? std::string("tab") : file.delimiter ? std::string(1, file.delimiter) : std::string();
    ownData_.header = file.header;
    ownData_.trainFraction = file.trainFraction;
    ownData_.devFraction = file.devFraction;
    selectData(dataset_, datasetId.toStdString());
    // The file's own reading settings into their rows, each read as a stored configuration is.
    TrainConfig reading;
    reading.quoting = file.quoting;
    reading.missingValues = file.missing;
    reading.categorical = file.categorical;
    reading.tokenizer = file.tokenizer;
    reading.lowercase = file.lowercase;
    reading.window = file.window;
    for (const char* key : {"quoting", "missing_values", "categorical", "tokenizer", "lowercase", "window"})
        find(key)->read(reading);
    const std::string shown = !ownData_.file.empty() ? ownData_.file : ownData_.trainFile;
    ownDataLabel_->setText(tr("Your file: %1").arg(QFileInfo(qs(shown)).fileName()));
    ownDataLabel_->setToolTip(qs(shown));
    showStatistics();
}

} // namespace attnlab::ui
