#include "ui/setup/DataSection.h"

#include "core/data/DataLocator.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/WordEmbeddings.h"
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

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

} // namespace

DataSection::DataSection(QWidget* parent) : QGroupBox(tr("Data"), parent)
{
    setObjectName(QStringLiteral("dataSection"));
    statistics_ = new DatasetStatisticsCache(this);
    statistics_->setObjectName(QStringLiteral("datasetStatisticsCache"));
    dataset_ = new QComboBox(this);
    dataset_->setObjectName(QStringLiteral("datasetCombo"));
    for (const auto& entry : Registry::datasets())
        addEntry(dataset_, entry);
    datasetStatistics_ = new QLabel(this);
    datasetStatistics_->setObjectName(QStringLiteral("datasetStatisticsLabel"));
    datasetStatistics_->setWordWrap(true);
    datasetStatistics_->setTextFormat(Qt::RichText);
    datasetStatistics_->setTextInteractionFlags(Qt::TextSelectableByMouse);

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

    auto* ownData = new QPushButton(tr("Your own data…"), this);
    ownData->setObjectName(QStringLiteral("ownDataButton"));
    ownData->setToolTip(tr("Train on your own CSV/TSV file of texts and labels, of time series, or of sentence pairs "
                           "to translate, with a preview"));
    connect(ownData, &QPushButton::clicked, this, &DataSection::importRequested);
    ownDataLabel_ = new QLabel(this);
    ownDataLabel_->setObjectName(QStringLiteral("ownDataLabel"));
    ownDataLabel_->setWordWrap(true);

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
    coverage_ = new QLabel(this);
    coverageRunner_ = new LatestRequestRunner(this);
    connect(coverageRunner_, &LatestRequestRunner::failed, this,
            [this](const QString& error) { coverage_->setText(tr("Cannot read the word vectors: %1").arg(error)); });
    coverage_->setObjectName(QStringLiteral("embeddingsCoverageLabel"));
    coverage_->setWordWrap(true);
    embeddingsFrozen_ = check(this, "embeddingsFrozenBox", tr("keep fixed"), tr("Do not fine-tune the pre-trained vectors"));
    oovRange_ = real(this, "oovRangeSpin", 0.0, 5.0, 3, 0.05);
    oovRange_->setToolTip(tr("Words without a pre-trained vector start uniform in [-a, a] (thesis: 0.25)"));

    phrases_ = check(this, "phrasesBox", tr("train on every labelled phrase"), tr("SST's phrase level (thesis 5.2.1, Table 5.6)"));
    lowercase_ = check(this, "lowercaseBox", tr("lowercase every token"), QString());
    tokenizer_ = choices(this, "tokenizerCombo", {{tr("PTB (words and punctuation)"), "ptb"}, {tr("whitespace"), "whitespace"}, {tr("tweets"), "tweet"}});
    orderDependent_ = check(this, "orderDependentBox", tr("label depends on clause order"),
                            tr("Synthetic sentences whose label changes with the order of their clauses: a model without positions cannot learn them"));
    distance_ = spin(this, "distanceSpin", 0, 200);
    distance_->setSpecialValueText(tr("random (0–2)"));
    distance_->setToolTip(tr("Filler words between the clauses that decide the label (long-range dependencies)"));
    window_ = spin(this, "windowSpin", 1, 1000);
    window_->setToolTip(tr("Time steps T per example"));
    lag_ = spin(this, "lagSpin", 0, 100);
    lag_->setToolTip(tr("The known lag at which the target follows its driver"));
    quoting_ = choices(this, "quotingCombo", {{tr("auto (off for tab-separated)"), "auto"}, {tr("on"), "on"}, {tr("off"), "off"}});
    missing_ = choices(this, "missingCombo", {{tr("error"), "error"}, {tr("drop the row"), "drop"}, {tr("last value"), "ffill"}, {tr("interpolate"), "interpolate"}});
    categorical_ = choices(this, "categoricalCombo", {{tr("skip with a note"), "skip"}, {tr("one-hot"), "onehot"}});

    const std::initializer_list<std::pair<QString, const char*>> languages = {
        {tr("English"), "en"}, {tr("German"), "de"}, {tr("French"), "fr"}};
    sourceLanguage_ = choices(this, "sourceLanguageCombo", languages);
    targetLanguage_ = choices(this, "targetLanguageCombo", languages);
    auto* arrow = new QLabel(QStringLiteral("→"), this);
    subwords_ = choices(this, "subwordsCombo", {{tr("words"), ""}, {tr("BPE pieces"), "bpe"}, {tr("unigram pieces"), "unigram"}});
    subwords_->setToolTip(tr("Words as the tokenizer splits them, or SentencePiece pieces learnt on the training split "
                             "(one model a side, kept with the weights)"));
    subwordVocabulary_ = spin(this, "subwordVocabularySpin", 50, 64000, 500);
    subwordVocabulary_->setToolTip(tr("About how many pieces each side's SentencePiece model has"));
    pairsTrain_ = spin(this, "pairsTrainSpin", 1, 1'000'000, 1000);
    pairsDev_ = spin(this, "pairsDevSpin", 1, 100'000, 100);
    pairsTest_ = spin(this, "pairsTestSpin", 1, 100'000, 100);
    for (QSpinBox* s : {pairsTrain_, pairsDev_, pairsTest_})
        s->setToolTip(tr("Generated pairs: train, dev, test"));
    minWords_ = spin(this, "minWordsSpin", 1, 500);
    maxWords_ = spin(this, "maxWordsSpin", 1, 500);
    minWords_->setToolTip(tr("Words per generated source sentence, fewest"));
    maxWords_->setToolTip(tr("Words per generated source sentence, most (reversal's test sentences are longer: up to twice this)"));
    maxPairLength_ = spin(this, "maxPairLengthSpin", 0, 100000);
    maxPairLength_->setSpecialValueText(tr("none"));
    maxPairLength_->setToolTip(tr("Training pairs with a side longer than this are left out (counted in the run's notes)"));

    auto* form = new QFormLayout(this);
    for (const Row& r : std::vector<Row>{{tr("Data folder"), row(this, {dataDir_, browse})},
                                         {tr("Dataset"), row(this, {dataset_, ownData})},
                                         {QString(), ownDataLabel_},
                                         {QString(), datasetStatistics_},
                                         {tr("Word vectors"), row(this, {embeddings_, browseVectors})},
                                         {QString(), coverage_},
                                         {tr("Vectors"), row(this, {embeddingsFrozen_}, true), true},
                                         {tr("OOV range"), oovRange_, true},
                                         {tr("SST"), phrases_, true},
                                         {tr("Tokens"), lowercase_, true},
                                         {tr("Tokenizer"), tokenizer_, true},
                                         {tr("Order"), orderDependent_},
                                         {tr("Distance"), distance_},
                                         {tr("Window"), window_},
                                         {tr("Lag"), lag_, true},
                                         {tr("Quotes"), quoting_, true},
                                         {tr("Missing cells"), missing_, true},
                                         {tr("Text columns"), categorical_, true},
                                         {tr("Languages"), row(this, {sourceLanguage_, arrow, targetLanguage_}, true)},
                                         {tr("Tokens as"), row(this, {subwords_, subwordVocabulary_}, true)},
                                         {tr("Pairs"), row(this, {pairsTrain_, pairsDev_, pairsTest_}, true), true},
                                         {tr("Words"), row(this, {minWords_, maxWords_}, true), true},
                                         {tr("Longest pair"), maxPairLength_, true}}) {
        r.label.isEmpty() ? form->addRow(r.field) : form->addRow(r.label, r.field);
        advancedRows_.insert(r.field, r.advanced);
    }
    connect(statistics_, &DatasetStatisticsCache::ready, this, [this](const QString& id) {
        if (id == dataset_->currentData().toString())
            showStatistics();
    });
    connect(dataset_, &QComboBox::currentIndexChanged, this, [this] {
        showStatistics();
        showCoverage();
    });
    connect(embeddings_, &QLineEdit::editingFinished, this, &DataSection::showCoverage);
    connect(subwords_, &QComboBox::currentIndexChanged, this, [this] { subwordVocabulary_->setEnabled(!subwords_->currentData().toString().isEmpty()); });
    subwordVocabulary_->setEnabled(false);
}

std::vector<std::tuple<const char*, QString, QWidget*>> DataSection::fields() const
{
    return {{"source_language", tr("Languages"), sourceLanguage_}, {"target_language", tr("Languages"), targetLanguage_},
            {"subwords", tr("Tokens as"), subwords_},             {"subword_vocabulary", tr("Tokens as"), subwordVocabulary_},
            {"translation_train", tr("Pairs"), pairsTrain_},      {"translation_dev", tr("Pairs"), pairsDev_},
            {"translation_test", tr("Pairs"), pairsTest_},        {"sequence_min_length", tr("Words"), minWords_},
            {"sequence_max_length", tr("Words"), maxWords_},         {"max_pair_length", tr("Longest pair"), maxPairLength_},
            {"window", tr("Window"), window_},                    {"lag", tr("Lag"), lag_}};
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

void DataSection::apply(TrainConfig& config) const
{
    const QString dataset = dataset_->currentData().toString();
    config.dataset = dataset.toStdString();
    config.dataDir = dataDir().toStdString();
    config.embeddingsPath = embeddings_->text().trimmed().toStdString();
    config.embeddingsFrozen = embeddingsFrozen_->isChecked();
    config.oovRange = oovRange_->value();
    config.phrases = dataset.startsWith(QLatin1String("sst-")) && phrases_->isChecked();
    config.lowercase = lowercase_->isChecked();
    config.tokenizer = dataset == QLatin1String("csv-text") && tokenizer_->currentData().toString() != QLatin1String("ptb")
                           ? tokenizer_->currentData().toString().toStdString() : std::string();
    config.orderDependent = dataset == QLatin1String("synthetic-sentiment") && orderDependent_->isChecked();
    config.distance = dataset == QLatin1String("synthetic-sentiment") ? distance_->value() : 0;
    config.window = window_->value();
    config.lag = lag_->value();
    config.quoting = quoting_->currentData().toString().toStdString();
    config.missingValues = missing_->currentData().toString().toStdString();
    config.categorical = categorical_->currentData().toString().toStdString();
    const RegistryEntry* entry = currentEntry(dataset_, Registry::datasets());
    if (entry && entry->task == "translation") { // other runs keep the defaults, so their JSON stays as it was
        const bool text = dataset == QLatin1String("multi30k") || dataset == QLatin1String("csv-pairs");
        if (dataset == QLatin1String("multi30k")) {
            config.sourceLanguage = sourceLanguage_->currentData().toString().toStdString();
            config.targetLanguage = targetLanguage_->currentData().toString().toStdString();
        }
        if (text) {
            config.subwords = subwords_->currentData().toString().toStdString();
            if (!config.subwords.empty())
                config.subwordVocabulary = subwordVocabulary_->value();
            config.maxPairLength = maxPairLength_->value();
        } else {
            config.translationTrain = pairsTrain_->value();
            config.translationDev = pairsDev_->value();
            config.translationTest = pairsTest_->value();
            if (dataset != QLatin1String("synthetic-dates")) {
                config.sequenceMinLength = minWords_->value();
                config.sequenceMaxLength = maxWords_->value();
            }
        }
    }
}

void DataSection::selectDataset(const std::string& id) { selectData(dataset_, id); }

void DataSection::load(const TrainConfig& config)
{
    embeddings_->setText(qs(config.embeddingsPath));
    embeddingsFrozen_->setChecked(config.embeddingsFrozen);
    oovRange_->setValue(config.oovRange);
    phrases_->setChecked(config.phrases);
    lowercase_->setChecked(config.lowercase);
    selectData(tokenizer_, config.tokenizer.empty() ? "ptb" : config.tokenizer);
    orderDependent_->setChecked(config.orderDependent);
    distance_->setValue(config.distance);
    window_->setValue(config.window);
    lag_->setValue(config.lag);
    selectData(quoting_, config.quoting);
    selectData(missing_, config.missingValues);
    selectData(categorical_, config.categorical);
    selectData(sourceLanguage_, config.sourceLanguage);
    selectData(targetLanguage_, config.targetLanguage);
    selectData(subwords_, config.subwords);
    subwordVocabulary_->setValue(config.subwordVocabulary);
    pairsTrain_->setValue(config.translationTrain);
    pairsDev_->setValue(config.translationDev);
    pairsTest_->setValue(config.translationTest);
    minWords_->setValue(config.sequenceMinLength);
    maxWords_->setValue(config.sequenceMaxLength);
    maxPairLength_->setValue(config.maxPairLength);
    if (config.dataset.rfind("csv-", 0) == 0)
        setOwnData(qs(config.dataset), config.datasetOptions());
    if (!config.dataDir.empty())
        dataDir_->setText(qs(config.dataDir));
}

void DataSection::addApplicability(QHash<QWidget*, bool>& applies) const
{
    const QString dataset = dataset_->currentData().toString();
    const RegistryEntry* entry = currentEntry(dataset_, Registry::datasets());
    const bool series = entry && entry->task == "regression";
    const bool csv = dataset.startsWith(QLatin1String("csv-"));
    const bool translation = entry && entry->task == "translation";
    const bool words = !series && !translation; // pre-trained word vectors: the text classifiers'
    applies.insert(embeddings_->parentWidget(), words);
    applies.insert(coverage_, words && !embeddings_->text().trimmed().isEmpty());
    applies.insert(embeddingsFrozen_->parentWidget(), words);
    applies.insert(oovRange_, words);
    const bool pairText = dataset == QLatin1String("multi30k") || dataset == QLatin1String("csv-pairs");
    applies.insert(sourceLanguage_->parentWidget(), dataset == QLatin1String("multi30k"));
    applies.insert(subwords_->parentWidget(), pairText);
    applies.insert(pairsTrain_->parentWidget(), translation && !pairText);
    applies.insert(minWords_->parentWidget(), translation && !pairText && dataset != QLatin1String("synthetic-dates"));
    applies.insert(maxPairLength_, pairText);
    applies.insert(phrases_, dataset.startsWith(QLatin1String("sst-")));
    applies.insert(lowercase_, !series);
    applies.insert(tokenizer_, dataset == QLatin1String("csv-text"));
    applies.insert(orderDependent_, dataset == QLatin1String("synthetic-sentiment"));
    applies.insert(distance_, dataset == QLatin1String("synthetic-sentiment"));
    applies.insert(window_, series);
    applies.insert(lag_, dataset == QLatin1String("synthetic-lag"));
    applies.insert(quoting_, csv);
    applies.insert(missing_, dataset == QLatin1String("csv-series") || dataset == QLatin1String("sml2010"));
    applies.insert(categorical_, dataset == QLatin1String("csv-series"));
    applies.insert(ownDataLabel_, csv && !ownDataLabel_->text().isEmpty());
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
    apply(c);
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
    selectData(quoting_, file.quoting);
    selectData(missing_, file.missing);
    selectData(categorical_, file.categorical);
    selectData(tokenizer_, file.tokenizer.empty() ? "ptb" : file.tokenizer);
    lowercase_->setChecked(file.lowercase);
    window_->setValue(file.window);
    const std::string shown = !ownData_.file.empty() ? ownData_.file : ownData_.trainFile;
    ownDataLabel_->setText(tr("Your file: %1").arg(QFileInfo(qs(shown)).fileName()));
    ownDataLabel_->setToolTip(qs(shown));
    showStatistics();
}

} // namespace attnlab::ui
