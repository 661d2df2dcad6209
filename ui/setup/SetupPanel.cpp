#include "ui/setup/SetupPanel.h"

#include "core/config/Registry.h"
#include "core/config/TrainPreset.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/WordEmbeddings.h"
#include "core/training/ComputeDevice.h"
#include "ui/setup/DatasetStatisticsCache.h"
#include "ui/setup/PresetChooser.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <exception>
#include <stdexcept>
#include <utility>
#include <vector>

namespace attnlab::ui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
std::string ss(const QString& s) { return s.trimmed().toStdString(); }

// A registry entry as a combo item: its name shown, its id as the data, its description as the tooltip.
void addEntry(QComboBox* combo, const RegistryEntry& entry)
{
    combo->addItem(qs(entry.name), qs(entry.id));
    combo->setItemData(combo->count() - 1, qs(entry.description), Qt::ToolTipRole);
}

// Refills a combo with fill(), keeping the chosen item where it is still offered; quietly, since the
// caller updates what depends on the choice itself.
template <class Fill>
void refill(QComboBox* combo, Fill fill)
{
    const QString previous = combo->currentData().toString();
    const QSignalBlocker blocker(combo);
    combo->clear();
    fill();
    const int keep = combo->findData(previous);
    combo->setCurrentIndex(keep >= 0 ? keep : 0);
}

void selectData(QComboBox* combo, const std::string& id)
{
    const int index = combo->findData(qs(id));
    if (index >= 0)
        combo->setCurrentIndex(index);
}

QComboBox* choices(QWidget* parent, const char* name, std::initializer_list<std::pair<QString, const char*>> items)
{
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QLatin1String(name));
    for (const auto& [text, id] : items)
        combo->addItem(text, QString::fromLatin1(id));
    return combo;
}

QSpinBox* spin(QWidget* parent, const char* name, int minimum, int maximum, int step = 1)
{
    auto* box = new QSpinBox(parent);
    box->setObjectName(QLatin1String(name));
    box->setRange(minimum, maximum);
    box->setSingleStep(step);
    box->setAccelerated(true);
    return box;
}

QDoubleSpinBox* real(QWidget* parent, const char* name, double minimum, double maximum, int decimals, double step)
{
    auto* box = new QDoubleSpinBox(parent);
    box->setObjectName(QLatin1String(name));
    box->setRange(minimum, maximum);
    box->setDecimals(decimals);
    box->setSingleStep(step);
    return box;
}

QCheckBox* check(QWidget* parent, const char* name, const QString& text, const QString& tip)
{
    auto* box = new QCheckBox(text, parent);
    box->setObjectName(QLatin1String(name));
    box->setToolTip(tip);
    return box;
}

const RegistryEntry* currentEntry(const QComboBox* combo, const std::vector<RegistryEntry>& list)
{
    return Registry::find(list, combo->currentData().toString().toStdString());
}

bool hasOption(const RegistryEntry* model, const char* option)
{
    return model && std::find(model->options.begin(), model->options.end(), option) != model->options.end();
}

// Widgets side by side in one form row, without margins of their own.
QWidget* row(QWidget* parent, std::initializer_list<QWidget*> widgets, bool stretch = false)
{
    auto* line = new QWidget(parent);
    auto* layout = new QHBoxLayout(line);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : widgets)
        layout->addWidget(w, w == *widgets.begin() && !stretch ? 1 : 0);
    if (stretch)
        layout->addStretch(1);
    return line;
}

struct Row {
    QString label; // empty: the widget spans the row
    QWidget* field;
    bool advanced = false;
};

} // namespace

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("setupPanel"));
    form_ = new QWidget(this);
    form_->setObjectName(QStringLiteral("setupForm"));
    presets_ = new PresetChooser(form_);
    statistics_ = new DatasetStatisticsCache(this);
    statistics_->setObjectName(QStringLiteral("datasetStatisticsCache"));

    advanced_ = check(form_, "advancedBox", tr("Show advanced settings"),
                      tr("Every setting the command line accepts: embeddings, schedules, clipping, patience, sampling, ..."));
    QWidget* data = buildDataBox();
    QWidget* model = buildModelBox();
    QWidget* training = buildTrainingBox();
    QWidget* compute = buildComputeBox();

    description_ = new QLabel(form_);
    description_->setObjectName(QStringLiteral("descriptionLabel"));
    description_->setWordWrap(true);
    description_->setTextFormat(Qt::RichText);
    description_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    description_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::MinimumExpanding);

    auto* start = new QGroupBox(tr("Start from"), form_);
    auto* startLayout = new QVBoxLayout(start);
    startLayout->addWidget(presets_);
    auto* formLayout = new QVBoxLayout(form_);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addWidget(start);
    formLayout->addWidget(advanced_);
    for (QWidget* box : {data, model, training, compute})
        formLayout->addWidget(box);
    formLayout->addWidget(description_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(form_, 1);
    // Never squeezed below what its rows need: in the designer's scroll area the form scrolls instead.
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    formLayout->setSizeConstraint(QLayout::SetMinimumSize);

    connect(dataset_, &QComboBox::currentIndexChanged, this, [this] {
        fillModels();
        showDatasetStatistics();
        showEmbeddingsCoverage();
    });
    connect(statistics_, &DatasetStatisticsCache::ready, this, [this](const QString& id) {
        if (id == dataset_->currentData().toString())
            showDatasetStatistics();
    });
    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        fillPositions();
        updateDescriptions();
    });
    connect(position_, &QComboBox::currentIndexChanged, this, &SetupPanel::updateDescriptions);
    connect(optimizer_, &QComboBox::currentIndexChanged, this, &SetupPanel::onOptimizerChanged);
    connect(schedule_, &QComboBox::currentIndexChanged, this, &SetupPanel::updateVisibility);
    connect(advanced_, &QCheckBox::toggled, this, &SetupPanel::updateVisibility);
    connect(embeddings_, &QLineEdit::editingFinished, this, &SetupPanel::showEmbeddingsCoverage);
    connect(presets_, &PresetChooser::presetChosen, this, [this](const TrainConfig& config, int repeats) {
        TrainConfig c = config;
        c.dataDir = ss(dataDir_->text()); // the user's data folder stays
        c.threads = threads_->value();
        setConfig(c);
        setRepeats(repeats);
    });
    connect(presets_, &PresetChooser::scenarioChosen, this, &SetupPanel::scenarioChosen);
    connect(presets_, &PresetChooser::openRequested, this, &SetupPanel::openConfigFile);
    connect(this, &SetupPanel::changed, this, [this] { presets_->showDifferences(config()); });
    for (QWidget* w : form_->findChildren<QWidget*>())
        if (w != advanced_ && !qobject_cast<QComboBox*>(w->parentWidget()) && !qobject_cast<QAbstractSpinBox*>(w->parentWidget())
            && w->parentWidget() != presets_)
            watch(w);

    fillModels(); // the default dataset is text: no time-series models in the list
    setConfig(TrainConfig{});
    showDatasetStatistics();
}

SetupPanel::~SetupPanel() = default;

QWidget* SetupPanel::buildDataBox()
{
    dataset_ = new QComboBox(form_);
    dataset_->setObjectName(QStringLiteral("datasetCombo"));
    for (const auto& entry : Registry::datasets())
        addEntry(dataset_, entry);
    datasetStatistics_ = new QLabel(form_);
    datasetStatistics_->setObjectName(QStringLiteral("datasetStatisticsLabel"));
    datasetStatistics_->setWordWrap(true);
    datasetStatistics_->setTextFormat(Qt::RichText);
    datasetStatistics_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // The data folder: a setting (remembered), before ATTNLAB_DATA_DIR and the user's data folder.
    dataDir_ = new QLineEdit(QSettings().value(QStringLiteral("dataDir")).toString(), form_);
    dataDir_->setObjectName(QStringLiteral("dataDirEdit"));
    dataDir_->setPlaceholderText(qEnvironmentVariableIsSet("ATTNLAB_DATA_DIR")
                                     ? tr("ATTNLAB_DATA_DIR (%1)").arg(qEnvironmentVariable("ATTNLAB_DATA_DIR"))
                                     : tr("~/.local/share/attnlab/datasets"));
    dataDir_->setToolTip(tr("Folder with the real datasets (laid out as in docs/DATASETS.md); empty: "
                            "ATTNLAB_DATA_DIR, then ~/.local/share/attnlab/datasets"));
    statistics_->setDataDir(dataDir_->text());
    auto* browse = new QToolButton(form_);
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose the data folder"));
    auto applyDataDir = [this] {
        QSettings().setValue(QStringLiteral("dataDir"), dataDir_->text());
        statistics_->setDataDir(dataDir_->text());
        coverageCache_.clear();
        showDatasetStatistics();
    };
    connect(dataDir_, &QLineEdit::editingFinished, this, applyDataDir);
    connect(browse, &QToolButton::clicked, this, [this, applyDataDir] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Data folder"), dataDir_->text());
        if (!dir.isEmpty()) {
            dataDir_->setText(dir);
            applyDataDir();
        }
    });

    auto* ownData = new QPushButton(tr("Your own data…"), form_);
    ownData->setObjectName(QStringLiteral("ownDataButton"));
    ownData->setToolTip(tr("Train on your own CSV/TSV file of texts and labels, or of time series, with a preview"));
    connect(ownData, &QPushButton::clicked, this, &SetupPanel::importRequested);
    ownDataLabel_ = new QLabel(form_);
    ownDataLabel_->setObjectName(QStringLiteral("ownDataLabel"));
    ownDataLabel_->setWordWrap(true);

    embeddings_ = new QLineEdit(form_);
    embeddings_->setObjectName(QStringLiteral("embeddingsEdit"));
    embeddings_->setPlaceholderText(tr("none: random vectors"));
    embeddings_->setToolTip(tr("Pre-trained word vectors (GloVe, word2vec text or binary, fastText; .gz too). A path relative "
                               "to the data folder works, as the thesis presets use it."));
    auto* browseVectors = new QToolButton(form_);
    browseVectors->setText(QStringLiteral("…"));
    browseVectors->setToolTip(tr("Choose a word-vector file"));
    connect(browseVectors, &QToolButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Word vectors"), dataDir_->text(),
                                                          tr("Word vectors (*.txt *.vec *.bin *.gz);;All files (*)"));
        if (!file.isEmpty()) {
            embeddings_->setText(file);
            showEmbeddingsCoverage();
            emit changed();
        }
    });
    coverage_ = new QLabel(form_);
    coverage_->setObjectName(QStringLiteral("embeddingsCoverageLabel"));
    coverage_->setWordWrap(true);
    embeddingsFrozen_ = check(form_, "embeddingsFrozenBox", tr("keep fixed"), tr("Do not fine-tune the pre-trained vectors"));
    oovRange_ = real(form_, "oovRangeSpin", 0.0, 5.0, 3, 0.05);
    oovRange_->setToolTip(tr("Words without a pre-trained vector start uniform in [-a, a] (thesis: 0.25)"));

    phrases_ = check(form_, "phrasesBox", tr("train on every labelled phrase"), tr("SST's phrase level (thesis 5.2.1, Table 5.6)"));
    lowercase_ = check(form_, "lowercaseBox", tr("lowercase every token"), QString());
    tokenizer_ = choices(form_, "tokenizerCombo", {{tr("PTB (words and punctuation)"), "ptb"}, {tr("whitespace"), "whitespace"}, {tr("tweets"), "tweet"}});
    orderDependent_ = check(form_, "orderDependentBox", tr("label depends on clause order"),
                            tr("Synthetic sentences whose label changes with the order of their clauses: a model without positions cannot learn them"));
    distance_ = spin(form_, "distanceSpin", 0, 200);
    distance_->setSpecialValueText(tr("random (0–2)"));
    distance_->setToolTip(tr("Filler words between the clauses that decide the label (long-range dependencies)"));
    window_ = spin(form_, "windowSpin", 1, 1000);
    window_->setToolTip(tr("Time steps T per example"));
    lag_ = spin(form_, "lagSpin", 0, 100);
    lag_->setToolTip(tr("The known lag at which the target follows its driver"));
    quoting_ = choices(form_, "quotingCombo", {{tr("auto (off for tab-separated)"), "auto"}, {tr("on"), "on"}, {tr("off"), "off"}});
    missing_ = choices(form_, "missingCombo", {{tr("error"), "error"}, {tr("drop the row"), "drop"}, {tr("last value"), "ffill"}, {tr("interpolate"), "interpolate"}});
    categorical_ = choices(form_, "categoricalCombo", {{tr("skip with a note"), "skip"}, {tr("one-hot"), "onehot"}});

    auto* box = new QGroupBox(tr("Data"), form_);
    auto* form = new QFormLayout(box);
    for (const Row& r : std::vector<Row>{{tr("Data folder"), row(form_, {dataDir_, browse})},
                                         {tr("Dataset"), row(form_, {dataset_, ownData})},
                                         {QString(), ownDataLabel_},
                                         {QString(), datasetStatistics_},
                                         {tr("Word vectors"), row(form_, {embeddings_, browseVectors})},
                                         {QString(), coverage_},
                                         {tr("Vectors"), row(form_, {embeddingsFrozen_}, true), true},
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
                                         {tr("Text columns"), categorical_, true}}) {
        r.label.isEmpty() ? form->addRow(r.field) : form->addRow(r.label, r.field);
        advancedRows_.insert(r.field, r.advanced);
    }
    return box;
}

QWidget* SetupPanel::buildModelBox()
{
    model_ = new QComboBox(form_);
    model_->setObjectName(QStringLiteral("modelCombo"));
    for (const auto& entry : Registry::models())
        addEntry(model_, entry);
    position_ = new QComboBox(form_);
    position_->setObjectName(QStringLiteral("positionCombo"));
    rprClip_ = spin(form_, "rprClipSpin", 1, 512);
    rprClip_->setToolTip(tr("k of Shaw et al. (2018): relative distances are clipped to [-k, k]"));
    dModel_ = spin(form_, "dModelSpin", 4, 2048, 8);
    layers_ = spin(form_, "layersSpin", 1, 12);
    heads_ = spin(form_, "headsSpin", 1, 64);
    heads_->setToolTip(tr("Attention heads; each gets d_model / heads dimensions, so heads must divide d_model"));
    activation_ = choices(form_, "activationCombo", {{tr("model default"), ""}, {QStringLiteral("relu"), "relu"}, {QStringLiteral("swish"), "swish"}, {QStringLiteral("gelu"), "gelu"}});
    pooling_ = new QComboBox(form_);
    pooling_->setObjectName(QStringLiteral("poolingCombo"));
    pooling_->setToolTip(tr("How positions become one vector: mean, max, or attention (ESSAN's AttnSeqRep)"));
    dropoutKeep_ = real(form_, "dropoutKeepSpin", 0.05, 1.0, 2, 0.05);
    dropoutKeep_->setToolTip(tr("Probability of keeping a unit (1 = no dropout)"));
    const char* pointNames[] = {"input", "hidden", "output"};
    const char* pointBoxNames[] = {"dropoutInputBox", "dropoutHiddenBox", "dropoutOutputBox"};
    const QString pointTips[] = {tr("Drop units of the input embeddings"), tr("Drop units of each layer's output"),
                                 tr("Drop units of the sentence vector before the softmax layer")};
    for (int i = 0; i < 3; ++i)
        dropoutPoints_[i] = check(form_, pointBoxNames[i], QString::fromLatin1(pointNames[i]), pointTips[i]);
    maxLength_ = spin(form_, "maxLengthSpin", 1, 100000);
    maxLength_->setToolTip(tr("Longer inputs are truncated (the count is reported)"));
    ffnHidden_ = spin(form_, "ffnHiddenSpin", 0, 65536);
    ffnHidden_->setSpecialValueText(tr("4 × d_model"));
    ffHidden_ = spin(form_, "ffHiddenSpin", 1, 65536);
    ffHidden_->setToolTip(tr("The ReLU layer before the softmax of the recurrent and CNN baselines (Barnes et al.)"));
    filters_ = spin(form_, "filtersSpin", 1, 4096);

    auto* box = new QGroupBox(tr("Model"), form_);
    auto* form = new QFormLayout(box);
    for (const Row& r : std::vector<Row>{{tr("Architecture"), model_},
                                         {tr("Position"), position_},
                                         {tr("RPR clip k"), rprClip_},
                                         {tr("d_model"), dModel_},
                                         {tr("Layers"), layers_},
                                         {tr("Heads"), heads_},
                                         {tr("Activation"), activation_, true},
                                         {tr("Pooling"), pooling_, true},
                                         {tr("Dropout keep"), dropoutKeep_},
                                         {tr("Dropout at"), row(form_, {dropoutPoints_[0], dropoutPoints_[1], dropoutPoints_[2]}, true), true},
                                         {tr("Max length"), maxLength_, true},
                                         {tr("FFN size"), ffnHidden_, true},
                                         {tr("Dense size"), ffHidden_, true},
                                         {tr("Filters"), filters_, true}}) {
        form->addRow(r.label, r.field);
        advancedRows_.insert(r.field, r.advanced);
    }
    return box;
}

QWidget* SetupPanel::buildTrainingBox()
{
    optimizer_ = choices(form_, "optimizerCombo", {{tr("Adam"), "adam"}, {tr("ADADELTA (ρ = 0.95)"), "adadelta"}, {tr("SGD + momentum"), "sgd"}});
    learningRate_ = real(form_, "learningRateSpin", 1e-5, 10.0, 5, 1e-4);
    momentum_ = real(form_, "momentumSpin", 0.0, 0.999, 3, 0.05);
    l2_ = real(form_, "l2Spin", 0.0, 10.0, 6, 1e-5);
    l2_->setToolTip(tr("Thesis eq. 4.1: loss + γ · (1/n) Σ w² over the weight matrices"));
    weightDecay_ = real(form_, "weightDecaySpin", 0.0, 10.0, 5, 1e-3);
    weightDecay_->setToolTip(tr("Decoupled weight decay per step (with Adam: AdamW)"));
    schedule_ = choices(form_, "scheduleCombo", {{tr("constant"), "constant"}, {tr("step decay"), "step"}, {tr("cosine"), "cosine"}});
    decayEvery_ = spin(form_, "decayEverySpin", 1, 10'000'000, 100);
    decayGamma_ = real(form_, "decayGammaSpin", 0.001, 1.0, 3, 0.05);
    warmup_ = spin(form_, "warmupSpin", 0, 10'000'000, 50);
    clipNorm_ = real(form_, "clipNormSpin", 0.0, 1000.0, 2, 0.5);
    clipNorm_->setSpecialValueText(tr("off"));
    steps_ = spin(form_, "stepsSpin", 1, 10'000'000, 100);
    epochs_ = spin(form_, "epochsSpin", 0, 100000);
    epochs_->setSpecialValueText(tr("off: use steps"));
    epochs_->setToolTip(tr("Passes over the training set; replaces the step budget when set"));
    patience_ = spin(form_, "patienceSpin", 0, 100000);
    patience_->setSpecialValueText(tr("off"));
    patience_->setToolTip(tr("Early stopping: dev evaluations without improvement before training stops"));
    sampling_ = choices(form_, "samplingCombo", {{tr("random batches (thesis)"), "random"}, {tr("shuffled epochs"), "epochs"}});
    batchSize_ = spin(form_, "batchSizeSpin", 1, 4096);
    evalEvery_ = spin(form_, "evalEverySpin", 1, 1'000'000, 10);
    evalEvery_->setToolTip(tr("Steps between dev evaluations and attention snapshots"));
    logEvery_ = spin(form_, "logEverySpin", 1, 1'000'000, 10);
    seed_ = spin(form_, "seedSpin", 0, INT_MAX);
    repeats_ = spin(form_, "repeatsSpin", 1, 100);
    repeats_->setToolTip(tr("Runs with seeds seed, seed + 1, ...; mean ± sample std at the end, as the thesis reports"));
    probes_ = new QLineEdit(form_);
    probes_->setObjectName(QStringLiteral("probesEdit"));
    probes_->setPlaceholderText(tr("one dev example per class"));
    probes_->setToolTip(tr("Sentences whose attention every evaluation stores besides the probe sentence, separated by ';' "
                           "(the Explorer's timeline shows them). Empty: one short dev example per class."));

    auto* box = new QGroupBox(tr("Training"), form_);
    auto* form = new QFormLayout(box);
    for (const Row& r : std::vector<Row>{{tr("Optimizer"), optimizer_},
                                         {tr("Learning rate"), learningRate_},
                                         {tr("Momentum"), momentum_, true},
                                         {tr("Schedule"), schedule_, true},
                                         {tr("Decay every"), decayEvery_, true},
                                         {tr("Decay factor"), decayGamma_, true},
                                         {tr("Warm-up steps"), warmup_, true},
                                         {tr("L2 (eq. 4.1)"), l2_, true},
                                         {tr("Weight decay"), weightDecay_, true},
                                         {tr("Clip gradients"), clipNorm_, true},
                                         {tr("Steps"), steps_},
                                         {tr("Epochs"), epochs_, true},
                                         {tr("Patience"), patience_, true},
                                         {tr("Batches"), sampling_, true},
                                         {tr("Batch size"), batchSize_},
                                         {tr("Eval every"), evalEvery_},
                                         {tr("Log every"), logEvery_, true},
                                         {tr("Seed"), seed_},
                                         {tr("Repeats"), repeats_},
                                         {tr("Probes"), probes_, true}}) {
        form->addRow(r.label, r.field);
        advancedRows_.insert(r.field, r.advanced);
    }
    return box;
}

QWidget* SetupPanel::buildComputeBox()
{
    device_ = choices(form_, "deviceCombo", {{tr("auto"), "auto"}, {tr("cpu"), "cpu"}, {tr("cuda"), "cuda"}});
    bool cuda = false;
    try {
        cuda = ComputeDevice::cudaAvailable();
    } catch (const std::exception&) {
        cuda = false;
    }
    if (!cuda) {
        if (auto* items = qobject_cast<QStandardItemModel*>(device_->model()))
            items->item(2)->setEnabled(false);
        device_->setItemData(2, tr("No CUDA device is available to this build of LibTorch"), Qt::ToolTipRole);
    }
    threads_ = spin(form_, "threadsSpin", 0, 256);
    threads_->setSpecialValueText(tr("all cores"));
    amp_ = check(form_, "ampBox", tr("bf16 autocast (CUDA only)"), tr("Mixed precision for the forward passes on a CUDA device"));

    auto* box = new QGroupBox(tr("Compute"), form_);
    auto* form = new QFormLayout(box);
    for (const Row& r : std::vector<Row>{{tr("Device"), device_}, {tr("Threads"), threads_}, {tr("Precision"), amp_, true}}) {
        form->addRow(r.label, r.field);
        advancedRows_.insert(r.field, r.advanced);
    }
    return box;
}

void SetupPanel::watch(QWidget* widget)
{
    const auto emitChanged = [this] {
        if (!filling_)
            emit changed();
    };
    if (auto* w = qobject_cast<QComboBox*>(widget))
        connect(w, &QComboBox::currentIndexChanged, this, emitChanged);
    else if (auto* w = qobject_cast<QSpinBox*>(widget))
        connect(w, &QSpinBox::valueChanged, this, emitChanged);
    else if (auto* w = qobject_cast<QDoubleSpinBox*>(widget))
        connect(w, &QDoubleSpinBox::valueChanged, this, emitChanged);
    else if (auto* w = qobject_cast<QCheckBox*>(widget))
        connect(w, &QCheckBox::toggled, this, emitChanged);
    else if (auto* w = qobject_cast<QLineEdit*>(widget))
        connect(w, &QLineEdit::textChanged, this, emitChanged);
}

void SetupPanel::showDatasetStatistics()
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

void SetupPanel::showEmbeddingsCoverage()
{
    // How many of the dataset's words the vectors cover: loading both takes seconds, so on a worker thread,
    // once per (dataset, file); the latest request wins.
    const TrainConfig c = config();
    coverage_->setVisible(!c.embeddingsPath.empty());
    if (c.embeddingsPath.empty())
        return;
    const QString key = qs(c.dataset + "|" + c.embeddingsPath);
    if (coverageCache_.contains(key)) {
        coverage_->setText(coverageCache_.value(key));
        return;
    }
    coverage_->setText(tr("<i>Computing the coverage of the word vectors…</i>"));
    const int generation = ++coverageGeneration_;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, key, generation] {
        coverageCache_.insert(key, watcher->result());
        if (generation == coverageGeneration_)
            coverage_->setText(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([c]() -> QString {
        try {
            const LoadedDataset data = DatasetCatalog::loadAny(c.dataset, c.datasetOptions());
            if (data.regression)
                return tr("Word vectors apply to text datasets only; this one is a time series.");
            const auto vectors = WordEmbeddings::load(c.embeddingsFile());
            const auto coverage = vectors.coverage({&data.text.train, &data.text.dev, &data.text.test});
            return tr("Covers %1% of the word types and %2% of the tokens (%3-d vectors)")
                .arg(100.0 * coverage.typeRate(), 0, 'f', 1)
                .arg(100.0 * coverage.tokenRate(), 0, 'f', 1)
                .arg(vectors.dimension());
        } catch (const std::exception& e) {
            return tr("Cannot read the word vectors: %1").arg(qs(e.what()));
        }
    }));
}

void SetupPanel::fillModels()
{
    const RegistryEntry* dataset = currentEntry(dataset_, Registry::datasets());
    const std::string task = dataset ? dataset->task : "classification";
    refill(model_, [&] {
        for (const auto& entry : Registry::models())
            if (entry.task == task || entry.task == "both")
                addEntry(model_, entry);
    });
    fillPositions();
    updateDescriptions();
}

void SetupPanel::fillPositions()
{
    const RegistryEntry* model = currentEntry(model_, Registry::models());
    refill(position_, [&] {
        for (const auto& entry : Registry::positions()) {
            const bool applies = !model || model->positions.empty()
                || std::find(model->positions.begin(), model->positions.end(), entry.id) != model->positions.end();
            if (applies)
                addEntry(position_, entry);
        }
    });
}

void SetupPanel::updateDescriptions()
{
    QStringList parts;
    const auto describe = [&parts](const QString& what, const RegistryEntry* entry) {
        if (entry)
            parts << QStringLiteral("<b>%1</b> — %2").arg(what, qs(entry->description).toHtmlEscaped());
    };
    describe(dataset_->currentText().toHtmlEscaped(), currentEntry(dataset_, Registry::datasets()));
    describe(model_->currentText().toHtmlEscaped(), currentEntry(model_, Registry::models()));
    describe(position_->currentText().toHtmlEscaped(), currentEntry(position_, Registry::positions()));
    description_->setText(parts.join(QStringLiteral("<br><br>")));
    for (QComboBox* combo : {dataset_, model_, position_})
        combo->setToolTip(combo->currentData(Qt::ToolTipRole).toString());
    rprClip_->setEnabled(position_->currentData().toString() == QLatin1String("rpr"));
    // Options the chosen model has (registry); the pooling list is the model's own choices.
    const RegistryEntry* model = currentEntry(model_, Registry::models());
    heads_->setEnabled(hasOption(model, "heads"));
    activation_->setEnabled(hasOption(model, "activation"));
    refill(pooling_, [&] {
        pooling_->addItem(tr("model default"), QString());
        if (model)
            for (const auto& p : model->pooling)
                pooling_->addItem(qs(p), qs(p));
    });
    pooling_->setEnabled(model && !model->pooling.empty());
    // Dropout points: the boxes show the model's defaults when the model changes, then the user's choice.
    const QString modelId = model_->currentData().toString();
    for (int i = 0; i < 3; ++i) {
        const std::string point = dropoutPoints_[i]->text().toStdString();
        const bool allowed = model && std::count(model->dropoutAllowed.begin(), model->dropoutAllowed.end(), point);
        dropoutPoints_[i]->setEnabled(allowed);
        if (modelId != dropoutModel_)
            dropoutPoints_[i]->setChecked(model && std::count(model->dropoutDefault.begin(), model->dropoutDefault.end(), point));
    }
    dropoutModel_ = modelId;
    updateVisibility();
}

void SetupPanel::updateVisibility()
{
    // A row is shown when it applies to the chosen dataset/model/optimizer, and, if advanced, when asked for.
    const QString dataset = dataset_->currentData().toString();
    const QString model = model_->currentData().toString();
    const RegistryEntry* entry = currentEntry(dataset_, Registry::datasets());
    const bool series = entry && entry->task == "regression";
    const bool csv = dataset.startsWith(QLatin1String("csv-"));
    const bool sst = dataset.startsWith(QLatin1String("sst-"));
    const bool synthetic = dataset == QLatin1String("synthetic-sentiment");
    const bool sgd = optimizer_->currentData().toString() == QLatin1String("sgd");
    const bool decays = schedule_->currentData().toString() == QLatin1String("step");
    QHash<QWidget*, bool> applies = {
        {embeddings_->parentWidget(), !series}, {coverage_, !series && !embeddings_->text().trimmed().isEmpty()},
        {embeddingsFrozen_->parentWidget(), !series}, {oovRange_, !series}, {phrases_, sst},
        {lowercase_, !series}, {tokenizer_, dataset == QLatin1String("csv-text")}, {orderDependent_, synthetic},
        {distance_, synthetic}, {window_, series}, {lag_, dataset == QLatin1String("synthetic-lag")},
        {quoting_, csv}, {missing_, dataset == QLatin1String("csv-series") || dataset == QLatin1String("sml2010")},
        {categorical_, dataset == QLatin1String("csv-series")}, {ownDataLabel_, csv && !ownDataLabel_->text().isEmpty()},
        {momentum_, sgd}, {decayEvery_, decays}, {decayGamma_, decays},
        {filters_, model == QLatin1String("cnn")}, {ffnHidden_, model == QLatin1String("transformer")},
        {ffHidden_, !series && (model == QLatin1String("lstm") || model == QLatin1String("bilstm") || model == QLatin1String("gru")
                                || model == QLatin1String("rnn") || model == QLatin1String("cnn"))},
        {probes_, !series},
    };
    const bool showAdvanced = advanced_->isChecked();
    for (QGroupBox* box : form_->findChildren<QGroupBox*>()) {
        auto* form = qobject_cast<QFormLayout*>(box->layout());
        if (!form)
            continue;
        for (int i = 0; i < form->rowCount(); ++i) {
            QLayoutItem* item = form->itemAt(i, QFormLayout::FieldRole);
            if (!item)
                item = form->itemAt(i, QFormLayout::SpanningRole);
            QWidget* field = item ? item->widget() : nullptr;
            if (!field || !advancedRows_.contains(field))
                continue;
            const bool visible = applies.value(field, true) && (showAdvanced || !advancedRows_.value(field));
            form->setRowVisible(i, visible);
        }
    }
}

void SetupPanel::onOptimizerChanged()
{
    if (!filling_)
        learningRate_->setValue(TrainConfig::defaultLearningRate(optimizer_->currentData().toString().toStdString()));
    updateVisibility();
}

TrainConfig SetupPanel::config() const
{
    TrainConfig config = ownData_; // the file settings of the user's own data (empty for other datasets)
    config.dataset = dataset_->currentData().toString().toStdString();
    if (config.dataset.rfind("csv-", 0) != 0)
        config = TrainConfig{};
    config.dataset = dataset_->currentData().toString().toStdString();
    config.dataDir = ss(dataDir_->text());
    config.model.model = model_->currentData().toString().toStdString();
    config.model.position = position_->currentData().toString().toStdString();
    config.model.dModel = dModel_->value();
    config.model.layers = layers_->value();
    config.model.rprClip = rprClip_->value();
    // Options the model does not have stay at their neutral values (decided by the registry, not by the
    // widgets' enabled state, which the locked form changes during a run).
    const RegistryEntry* entry = currentEntry(model_, Registry::models());
    config.model.heads = hasOption(entry, "heads") ? heads_->value() : 1;
    config.model.activation = hasOption(entry, "activation") ? activation_->currentData().toString().toStdString() : std::string();
    config.model.pooling = entry && !entry->pooling.empty() ? pooling_->currentData().toString().toStdString() : std::string();
    config.model.dropoutKeep = dropoutKeep_->value();
    config.model.maxLength = maxLength_->value();
    config.model.ffnHidden = ffnHidden_->value();
    config.model.ffHidden = ffHidden_->value();
    config.model.filters = filters_->value();
    if (entry) { // "" while the boxes show the model's own points, so stored configs stay short
        std::vector<std::string> chosen;
        std::string list;
        for (QCheckBox* box : dropoutPoints_) {
            const std::string point = box->text().toStdString();
            if (box->isChecked() && std::count(entry->dropoutAllowed.begin(), entry->dropoutAllowed.end(), point)) {
                chosen.push_back(point);
                list += (list.empty() ? "" : ",") + point;
            }
        }
        if (chosen != entry->dropoutDefault)
            config.model.dropoutPoints = chosen.empty() ? "none" : list;
    }
    config.optimizer = optimizer_->currentData().toString().toStdString();
    config.learningRate = learningRate_->value();
    config.momentum = momentum_->value();
    config.l2 = l2_->value();
    config.weightDecay = weightDecay_->value();
    config.lrSchedule = schedule_->currentData().toString().toStdString();
    config.lrDecayEvery = decayEvery_->value();
    config.lrDecayGamma = decayGamma_->value();
    config.warmupSteps = warmup_->value();
    config.clipNorm = clipNorm_->value();
    config.steps = steps_->value();
    config.epochs = epochs_->value();
    config.patience = patience_->value();
    config.sampling = sampling_->currentData().toString().toStdString();
    config.batchSize = batchSize_->value();
    config.evalEvery = evalEvery_->value();
    config.logEvery = logEvery_->value();
    config.seed = static_cast<std::uint64_t>(seed_->value());
    config.device = device_->currentData().toString().toStdString();
    config.threads = threads_->value();
    config.amp = amp_->isChecked();
    config.embeddingsPath = ss(embeddings_->text());
    config.embeddingsFrozen = embeddingsFrozen_->isChecked();
    config.oovRange = oovRange_->value();
    const QString dataset = dataset_->currentData().toString();
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
    for (const QString& probe : probes_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (!probe.trimmed().isEmpty())
            config.probes.push_back(probe.trimmed().toStdString());
    return config;
}

void SetupPanel::setConfig(const TrainConfig& config)
{
    filling_ = true;
    selectData(dataset_, config.dataset);
    fillModels();
    selectData(model_, config.model.model);
    fillPositions();
    selectData(position_, config.model.position);
    dModel_->setValue(config.model.dModel);
    layers_->setValue(config.model.layers);
    rprClip_->setValue(config.model.rprClip);
    heads_->setValue(config.model.heads);
    selectData(activation_, config.model.activation);
    updateDescriptions(); // the model's pooling choices
    selectData(pooling_, config.model.pooling);
    dropoutKeep_->setValue(config.model.dropoutKeep);
    const auto active = config.model.activeDropoutPoints();
    for (QCheckBox* box : dropoutPoints_)
        box->setChecked(std::count(active.begin(), active.end(), box->text().toStdString()) > 0);
    maxLength_->setValue(config.model.maxLength);
    ffnHidden_->setValue(config.model.ffnHidden);
    ffHidden_->setValue(config.model.ffHidden);
    filters_->setValue(config.model.filters);
    selectData(optimizer_, config.optimizer); // the stored learning rate wins over the optimiser's default
    learningRate_->setValue(config.learningRate);
    momentum_->setValue(config.momentum);
    l2_->setValue(config.l2);
    weightDecay_->setValue(config.weightDecay);
    selectData(schedule_, config.lrSchedule);
    decayEvery_->setValue(config.lrDecayEvery);
    decayGamma_->setValue(config.lrDecayGamma);
    warmup_->setValue(config.warmupSteps);
    clipNorm_->setValue(config.clipNorm);
    steps_->setValue(config.steps);
    epochs_->setValue(config.epochs);
    patience_->setValue(config.patience);
    selectData(sampling_, config.sampling);
    batchSize_->setValue(config.batchSize);
    evalEvery_->setValue(config.evalEvery);
    logEvery_->setValue(config.logEvery);
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(config.seed, INT_MAX)));
    QStringList probes;
    for (const auto& p : config.probes)
        probes << QString::fromStdString(p);
    probes_->setText(probes.join(QStringLiteral("; ")));
    selectData(device_, config.device);
    threads_->setValue(config.threads);
    amp_->setChecked(config.amp);
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
    if (config.dataset.rfind("csv-", 0) == 0)
        setOwnData(qs(config.dataset), config.datasetOptions());
    if (!config.dataDir.empty())
        dataDir_->setText(qs(config.dataDir));
    filling_ = false;
    updateDescriptions();
    showDatasetStatistics();
    showEmbeddingsCoverage();
    emit changed();
}

void SetupPanel::setOwnData(const QString& datasetId, const DatasetOptions& file)
{
    ownData_ = TrainConfig{};
    ownData_.file = file.file;
    ownData_.trainFile = file.trainFile;
    ownData_.devFile = file.devFile;
    ownData_.testFile = file.testFile;
    ownData_.textColumn = file.textColumn;
    ownData_.labelColumn = file.labelColumn;
    ownData_.targetColumn = file.targetColumn;
    ownData_.driverColumns = file.driverColumns;
    ownData_.delimiter = file.delimiter == '\t' ? std::string("tab") : file.delimiter ? std::string(1, file.delimiter) : std::string();
    ownData_.header = file.header;
    ownData_.trainFraction = file.trainFraction;
    ownData_.devFraction = file.devFraction;
    const bool wasFilling = filling_;
    filling_ = true;
    selectData(dataset_, datasetId.toStdString());
    selectData(quoting_, file.quoting);
    selectData(missing_, file.missing);
    selectData(categorical_, file.categorical);
    selectData(tokenizer_, file.tokenizer.empty() ? "ptb" : file.tokenizer);
    lowercase_->setChecked(file.lowercase);
    window_->setValue(file.window);
    filling_ = wasFilling;
    const std::string shown = !ownData_.file.empty() ? ownData_.file : ownData_.trainFile;
    ownDataLabel_->setText(tr("Your file: %1").arg(QFileInfo(qs(shown)).fileName()));
    ownDataLabel_->setToolTip(qs(shown));
    showDatasetStatistics();
    updateVisibility();
    if (!filling_)
        emit changed();
}

int SetupPanel::repeats() const { return repeats_->value(); }
void SetupPanel::setRepeats(int repeats) { repeats_->setValue(std::max(1, repeats)); }
bool SetupPanel::advancedShown() const { return advanced_->isChecked(); }
void SetupPanel::setAdvancedShown(bool shown) { advanced_->setChecked(shown); }

void SetupPanel::setTrainingActive(bool active)
{
    form_->setEnabled(!active);
}

void SetupPanel::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("designer/lastConfig"), qs(config().toJson()));
    settings.setValue(QStringLiteral("designer/repeats"), repeats());
    settings.setValue(QStringLiteral("designer/advanced"), advancedShown());
    settings.setValue(QStringLiteral("designer/preset"), presets_->chosenName());
}

void SetupPanel::restoreSettings()
{
    QSettings settings;
    const QString last = settings.value(QStringLiteral("designer/lastConfig")).toString();
    if (!last.isEmpty()) {
        try {
            setConfig(TrainConfig::fromJson(last.toStdString()));
        } catch (const std::exception&) {
            // A configuration another version wrote: the defaults stay.
        }
    }
    setRepeats(settings.value(QStringLiteral("designer/repeats"), 1).toInt());
    setAdvancedShown(settings.value(QStringLiteral("designer/advanced"), false).toBool());
}

void SetupPanel::saveConfigFile(const QString& path) const
{
    // The JSON `attnlab-cli train --config` reads: the configuration plus description and repeats.
    TrainConfig c = config();
    c.checkpointDir.clear(); // where this window keeps weights is not part of the experiment
    auto j = nlohmann::json::parse(c.toJson());
    j["repeats"] = repeats();
    j["description"] = presets_->chosenName().isEmpty() ? std::string("saved from Attention Lab")
                                                         : "saved from Attention Lab, starting from " + presets_->chosenName().toStdString();
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        throw std::runtime_error(path.toStdString() + ": cannot write (" + file.errorString().toStdString() + ")");
    const std::string text = j.dump(2) + "\n";
    if (file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) || !file.flush())
        throw std::runtime_error(path.toStdString() + ": cannot write (" + file.errorString().toStdString() + ")");
    presets_->addRecentFile(path);
}

void SetupPanel::openConfigFile(const QString& path)
{
    try {
        const TrainPreset preset = TrainPreset::fromFile(path.toStdString());
        TrainConfig c = preset.config;
        if (c.dataDir.empty())
            c.dataDir = ss(dataDir_->text());
        setConfig(c);
        setRepeats(preset.repeats);
        presets_->addRecentFile(path);
        emit message(tr("Opened the configuration %1").arg(path));
    } catch (const std::exception& e) {
        emit message(tr("Cannot open the configuration: %1").arg(qs(e.what())));
    }
}

} // namespace attnlab::ui
