#include "ui/setup/SetupPanel.h"

#include "core/config/Registry.h"
#include "core/training/ComputeDevice.h"
#include "ui/setup/DatasetStatisticsCache.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QToolButton>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <exception>
#include <utility>
#include <vector>

namespace attnlab::ui {
namespace {


QString qs(const std::string& s) { return QString::fromStdString(s); }

// A registry entry as a combo item: its name shown, its id as the data, its description as the tooltip.
void addEntry(QComboBox* combo, const RegistryEntry& entry)
{
    combo->addItem(qs(entry.name), qs(entry.id));
    combo->setItemData(combo->count() - 1, qs(entry.description), Qt::ToolTipRole);
}

void fillFromRegistry(QComboBox* combo, const std::vector<RegistryEntry>& entries)
{
    for (const auto& entry : entries)
        addEntry(combo, entry);
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

QSpinBox* spin(QWidget* parent, const char* name, int minimum, int maximum, int step = 1)
{
    auto* box = new QSpinBox(parent);
    box->setObjectName(QLatin1String(name));
    box->setRange(minimum, maximum);
    box->setSingleStep(step);
    box->setAccelerated(true);
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

// A titled box of labelled rows, in order; a row without a label spans the box.
QGroupBox* formBox(QWidget* parent, const QString& title, const std::vector<std::pair<QString, QWidget*>>& rows)
{
    auto* box = new QGroupBox(title, parent);
    auto* form = new QFormLayout(box);
    for (const auto& [label, widget] : rows) {
        if (label.isEmpty())
            form->addRow(widget);
        else
            form->addRow(label, widget);
    }
    return box;
}

// Widgets side by side in one form row, without margins of their own.
QHBoxLayout* rowLayout(QWidget* row)
{
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    return layout;
}

} // namespace

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("setupPanel"));

    form_ = new QWidget(this);
    form_->setObjectName(QStringLiteral("setupForm"));

    dataset_ = new QComboBox(form_);
    dataset_->setObjectName(QStringLiteral("datasetCombo"));
    fillFromRegistry(dataset_, Registry::datasets());
    model_ = new QComboBox(form_);
    model_->setObjectName(QStringLiteral("modelCombo"));
    fillFromRegistry(model_, Registry::models());
    position_ = new QComboBox(form_);
    position_->setObjectName(QStringLiteral("positionCombo"));

    rprClip_ = spin(form_, "rprClipSpin", 1, 512);
    rprClip_->setToolTip(tr("k of Shaw et al. (2018): relative distances are clipped to [-k, k]"));
    dModel_ = spin(form_, "dModelSpin", 4, 2048, 8);
    layers_ = spin(form_, "layersSpin", 1, 12);
    heads_ = spin(form_, "headsSpin", 1, 64);
    heads_->setToolTip(tr("Attention heads; each gets d_model / heads dimensions, so heads must divide d_model"));
    activation_ = new QComboBox(form_);
    activation_->setObjectName(QStringLiteral("activationCombo"));
    activation_->addItem(tr("model default"), QString());
    for (const char* a : {"relu", "swish", "gelu"})
        activation_->addItem(QString::fromLatin1(a), QString::fromLatin1(a));
    pooling_ = new QComboBox(form_);
    pooling_->setObjectName(QStringLiteral("poolingCombo"));
    pooling_->setToolTip(tr("How positions become one vector: mean, max, or attention (ESSAN's AttnSeqRep)"));
    dropoutKeep_ = new QDoubleSpinBox(form_);
    dropoutKeep_->setObjectName(QStringLiteral("dropoutKeepSpin"));
    dropoutKeep_->setRange(0.05, 1.0);
    dropoutKeep_->setSingleStep(0.05);
    dropoutKeep_->setDecimals(2);
    dropoutKeep_->setToolTip(tr("Probability of keeping a unit (1 = no dropout)"));
    const char* pointNames[] = {"input", "hidden", "output"};
    const char* pointBoxNames[] = {"dropoutInputBox", "dropoutHiddenBox", "dropoutOutputBox"};
    const QString pointTips[] = {tr("Drop units of the input embeddings"), tr("Drop units of each layer's output"),
                                 tr("Drop units of the sentence vector before the softmax layer")};
    for (int i = 0; i < 3; ++i) {
        dropoutPoints_[i] = new QCheckBox(QString::fromLatin1(pointNames[i]), form_);
        dropoutPoints_[i]->setObjectName(QLatin1String(pointBoxNames[i]));
        dropoutPoints_[i]->setToolTip(pointTips[i]);
    }

    optimizer_ = new QComboBox(form_);
    optimizer_->setObjectName(QStringLiteral("optimizerCombo"));
    optimizer_->addItem(tr("Adam"), QStringLiteral("adam"));
    optimizer_->addItem(tr("ADADELTA (ρ = 0.95)"), QStringLiteral("adadelta"));
    learningRate_ = new QDoubleSpinBox(form_);
    learningRate_->setObjectName(QStringLiteral("learningRateSpin"));
    learningRate_->setDecimals(5);
    learningRate_->setRange(1e-5, 10.0);
    learningRate_->setSingleStep(1e-4);
    steps_ = spin(form_, "stepsSpin", 1, 10'000'000, 100);
    batchSize_ = spin(form_, "batchSizeSpin", 1, 4096);
    evalEvery_ = spin(form_, "evalEverySpin", 1, 1'000'000, 10);
    evalEvery_->setToolTip(tr("Steps between dev evaluations and attention snapshots"));
    seed_ = spin(form_, "seedSpin", 0, INT_MAX);
    probes_ = new QLineEdit(form_);
    probes_->setObjectName(QStringLiteral("probesEdit"));
    probes_->setPlaceholderText(tr("one dev example per class"));
    probes_->setToolTip(tr("Sentences whose attention every evaluation stores besides the probe sentence, separated by ';' "
                           "(the Explorer's timeline shows them). Empty: one short dev example per class."));

    device_ = new QComboBox(form_);
    device_->setObjectName(QStringLiteral("deviceCombo"));
    device_->addItem(tr("auto"), QStringLiteral("auto"));
    device_->addItem(tr("cpu"), QStringLiteral("cpu"));
    device_->addItem(tr("cuda"), QStringLiteral("cuda"));
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

    statistics_ = new DatasetStatisticsCache(this);
    statistics_->setObjectName(QStringLiteral("datasetStatisticsCache"));
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
    auto* dataDirRow = new QWidget(form_);
    QHBoxLayout* dataDirLayout = rowLayout(dataDirRow);
    dataDirLayout->addWidget(dataDir_, 1);
    dataDirLayout->addWidget(browse);
    auto applyDataDir = [this] {
        QSettings().setValue(QStringLiteral("dataDir"), dataDir_->text());
        statistics_->setDataDir(dataDir_->text());
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

    auto* points = new QWidget(form_);
    QHBoxLayout* pointsLayout = rowLayout(points);
    for (QCheckBox* box : dropoutPoints_)
        pointsLayout->addWidget(box);
    pointsLayout->addStretch(1);

    QGroupBox* modelBox = formBox(form_, tr("Data and model"),
                                  {{tr("Data folder"), dataDirRow},
                                   {tr("Dataset"), dataset_},
                                   {QString(), datasetStatistics_},
                                   {tr("Architecture"), model_},
                                   {tr("Position"), position_},
                                   {tr("RPR clip k"), rprClip_},
                                   {tr("d_model"), dModel_},
                                   {tr("Layers"), layers_},
                                   {tr("Heads"), heads_},
                                   {tr("Activation"), activation_},
                                   {tr("Pooling"), pooling_},
                                   {tr("Dropout keep"), dropoutKeep_},
                                   {tr("Dropout at"), points}});
    QGroupBox* trainBox = formBox(form_, tr("Training"),
                                  {{tr("Optimizer"), optimizer_},
                                   {tr("Learning rate"), learningRate_},
                                   {tr("Steps"), steps_},
                                   {tr("Batch size"), batchSize_},
                                   {tr("Eval every"), evalEvery_},
                                   {tr("Seed"), seed_},
                                   {tr("Probes"), probes_}});
    QGroupBox* computeBox = formBox(form_, tr("Compute"), {{tr("Device"), device_}, {tr("Threads"), threads_}});

    description_ = new QLabel(form_);
    description_->setObjectName(QStringLiteral("descriptionLabel"));
    description_->setWordWrap(true);
    description_->setTextFormat(Qt::RichText);
    description_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    description_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::MinimumExpanding);

    auto* formLayout = new QVBoxLayout(form_);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addWidget(modelBox);
    formLayout->addWidget(trainBox);
    formLayout->addWidget(computeBox);
    formLayout->addWidget(description_, 1);

    train_ = new QPushButton(tr("Train"), this);
    train_->setObjectName(QStringLiteral("trainButton"));
    train_->setDefault(true);
    stop_ = new QPushButton(tr("Stop"), this);
    stop_->setObjectName(QStringLiteral("stopButton"));
    stop_->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(train_);
    buttons->addWidget(stop_);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(form_, 1);
    layout->addLayout(buttons);

    connect(dataset_, &QComboBox::currentIndexChanged, this, &SetupPanel::fillModels);
    connect(dataset_, &QComboBox::currentIndexChanged, this, &SetupPanel::updateDescriptions);
    connect(dataset_, &QComboBox::currentIndexChanged, this, &SetupPanel::showDatasetStatistics);
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
    connect(train_, &QPushButton::clicked, this, &SetupPanel::trainRequested);
    connect(stop_, &QPushButton::clicked, this, &SetupPanel::stopRequested);

    fillModels(); // the default dataset is text: no time-series models in the list
    setConfig(TrainConfig{});
    showDatasetStatistics();
}

void SetupPanel::showDatasetStatistics()
{
    const QString id = dataset_->currentData().toString();
    if (const auto* entry = statistics_->cached(id)) {
        datasetStatistics_->setText(entry->html);
        datasetStatistics_->setToolTip(entry->summary);
        return;
    }
    datasetStatistics_->setText(tr("<i>Computing the statistics of %1…</i>").arg(dataset_->currentText().toHtmlEscaped()));
    datasetStatistics_->setToolTip(QString());
    statistics_->request(id);
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
}

void SetupPanel::onOptimizerChanged()
{
    learningRate_->setValue(TrainConfig::defaultLearningRate(optimizer_->currentData().toString().toStdString()));
}

TrainConfig SetupPanel::config() const
{
    TrainConfig config;
    config.dataset = dataset_->currentData().toString().toStdString();
    config.dataDir = dataDir_->text().trimmed().toStdString();
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
    config.steps = steps_->value();
    config.batchSize = batchSize_->value();
    config.evalEvery = evalEvery_->value();
    config.seed = static_cast<std::uint64_t>(seed_->value());
    config.device = device_->currentData().toString().toStdString();
    config.threads = threads_->value();
    for (const QString& probe : probes_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (!probe.trimmed().isEmpty())
            config.probes.push_back(probe.trimmed().toStdString());
    return config;
}

void SetupPanel::setConfig(const TrainConfig& config)
{
    selectData(dataset_, config.dataset);
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
    {
        // The stored learning rate wins over the optimiser's default.
        const QSignalBlocker blocker(optimizer_);
        selectData(optimizer_, config.optimizer);
    }
    learningRate_->setValue(config.learningRate);
    steps_->setValue(config.steps);
    batchSize_->setValue(config.batchSize);
    evalEvery_->setValue(config.evalEvery);
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(config.seed, INT_MAX)));
    QStringList probes;
    for (const auto& p : config.probes)
        probes << QString::fromStdString(p);
    probes_->setText(probes.join(QStringLiteral("; ")));
    selectData(device_, config.device);
    threads_->setValue(config.threads);
    updateDescriptions();
}

void SetupPanel::setTrainingActive(bool active)
{
    form_->setEnabled(!active);
    train_->setEnabled(!active);
    stop_->setEnabled(active);
}

} // namespace attnlab::ui
