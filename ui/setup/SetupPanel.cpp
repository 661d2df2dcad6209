#include "ui/setup/SetupPanel.h"

#include "core/config/Registry.h"
#include "core/config/TrainPreset.h"
#include "core/training/ComputeDevice.h"
#include "ui/setup/DataSection.h"
#include "ui/setup/FormWidgets.h"
#include "ui/setup/PresetChooser.h"
#include "ui/setup/TranslationSection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <exception>
#include <stdexcept>
#include <utility>
#include <tuple>
#include <vector>

namespace attnlab::ui {

using namespace form;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

} // namespace

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("setupPanel"));
    form_ = new QWidget(this);
    form_->setObjectName(QStringLiteral("setupForm"));
    presets_ = new PresetChooser(form_);

    advanced_ = check(form_, "advancedBox", tr("Show advanced settings"),
                      tr("Every setting the command line accepts: embeddings, schedules, clipping, patience, sampling, ..."));
    data_ = new DataSection(form_);
    for (auto it = data_->advancedRows().begin(); it != data_->advancedRows().end(); ++it)
        advancedRows_.insert(it.key(), it.value());
    dataset_ = data_->datasetCombo();
    QWidget* model = buildModelBox();
    QWidget* training = buildTrainingBox();
    QWidget* compute = buildComputeBox();
    translation_ = new TranslationSection(form_);
    for (auto it = translation_->advancedRows().begin(); it != translation_->advancedRows().end(); ++it)
        advancedRows_.insert(it.key(), it.value());

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
    for (QWidget* box : {static_cast<QWidget*>(data_), model, static_cast<QWidget*>(translation_), training, compute})
        formLayout->addWidget(box);
    formLayout->addWidget(description_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(form_, 1);
    // Never squeezed below what its rows need: in the designer's scroll area the form scrolls instead.
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    formLayout->setSizeConstraint(QLayout::SetMinimumSize);

    connect(dataset_, &QComboBox::currentIndexChanged, this, &SetupPanel::fillModels);
    connect(data_, &DataSection::importRequested, this, &SetupPanel::importRequested);
    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        fillPositions();
        updateDescriptions();
    });
    connect(position_, &QComboBox::currentIndexChanged, this, &SetupPanel::updateDescriptions);
    connect(optimizer_, &QComboBox::currentIndexChanged, this, &SetupPanel::onOptimizerChanged);
    connect(schedule_, &QComboBox::currentIndexChanged, this, &SetupPanel::updateVisibility);
    connect(translation_, &TranslationSection::alignmentChanged, this, &SetupPanel::updateVisibility);
    connect(advanced_, &QCheckBox::toggled, this, &SetupPanel::updateVisibility);
    connect(presets_, &PresetChooser::presetChosen, this, [this](const TrainConfig& config, int repeats) {
        TrainConfig c = config;
        c.dataDir = data_->dataDir().toStdString(); // the user's data folder stays
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
}

SetupPanel::~SetupPanel() = default;

QWidget* SetupPanel::buildModelBox()
{
    model_ = new QComboBox(form_);
    model_->setObjectName(QStringLiteral("modelCombo"));
    for (const auto& entry : Registry::models())
        addEntry(model_, entry);
    frozenEncoder_ = check(form_, "frozenEncoderBox", tr("Train the head only"),
                           tr("Keep the pretrained encoder as loaded and train only the classification layer (fast)"));
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
                                         {tr("Pretrained encoder"), frozenEncoder_},
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
    // auto, cpu, then each CUDA device by name and memory (data cuda:N); without one a disabled "cuda" that
    // says why, so the choice is visible and its absence explained.
    std::vector<GpuDevice> gpus;
    try {
        gpus = ComputeDevice::gpus();
    } catch (const std::exception&) {
        gpus.clear();
    }
    device_ = choices(form_, "deviceCombo", {{tr("auto"), "auto"}, {tr("cpu"), "cpu"}});
    for (const auto& gpu : gpus)
        device_->addItem(QString::fromStdString(gpu.label()), QString::fromStdString(gpu.id()));
    if (gpus.empty())
        device_->addItem(tr("cuda"), QStringLiteral("cuda"));
    if (gpus.empty()) {
        if (auto* items = qobject_cast<QStandardItemModel*>(device_->model()))
            items->item(2)->setEnabled(false);
        device_->setItemData(2, ComputeDevice::cudaBuilt() ? tr("This LibTorch has CUDA, but no CUDA device is usable here")
                                                           : tr("This build of LibTorch has no CUDA (build the pypi flavour)"),
                             Qt::ToolTipRole);
    }
    threads_ = spin(form_, "threadsSpin", 0, 256);
    threads_->setSpecialValueText(tr("all cores"));
    amp_ = check(form_, "ampBox", tr("bf16 autocast (CUDA only)"), tr("Mixed precision for the forward passes on a CUDA device"));
    tf32_ = check(form_, "tf32Box", tr("TF32 matrix products (CUDA only)"),
                  tr("Float32 matrix products in TF32 on Ampere and later GPUs: faster, about 3 decimal digits"));
    deterministic_ = check(form_, "deterministicBox", tr("deterministic kernels"),
                           tr("Only LibTorch's deterministic algorithms: the same seed gives the same numbers on the same GPU"));

    auto* box = new QGroupBox(tr("Compute"), form_);
    auto* form = new QFormLayout(box);
    for (const Row& r : std::vector<Row>{{tr("Device"), device_}, {tr("Threads"), threads_}, {tr("Precision"), amp_, true},
                                         {tr("TF32"), tf32_, true}, {tr("Reproducible"), deterministic_, true}}) {
        form->addRow(r.label, r.field);
        advancedRows_.insert(r.field, r.advanced);
    }
    return box;
}

QString SetupPanel::inFieldTerms(const std::string& problem)
{
    const auto colon = problem.find(':');
    const QString text = QString::fromStdString(problem);
    if (colon == std::string::npos)
        return text;
    const std::string key = problem.substr(0, colon);
    // The configuration keys the form sets, with the label of the row that sets each.
    std::vector<std::tuple<const char*, QString, QWidget*>> fields = {
        {"position", tr("Position"), position_},       {"rpr_clip", tr("RPR clip k"), rprClip_},
        {"d_model", tr("d_model"), dModel_},            {"layers", tr("Layers"), layers_},
        {"heads", tr("Heads"), heads_},                 {"activation", tr("Activation"), activation_},
        {"pooling", tr("Pooling"), pooling_},           {"dropout_keep", tr("Dropout keep"), dropoutKeep_},
        {"max_length", tr("Max length"), maxLength_},   {"ffn_hidden", tr("FFN size"), ffnHidden_},
        {"ff_hidden", tr("Dense size"), ffHidden_},     {"filters", tr("Filters"), filters_},
        {"optimizer", tr("Optimizer"), optimizer_},     {"learning_rate", tr("Learning rate"), learningRate_},
        {"momentum", tr("Momentum"), momentum_},         {"lr_schedule", tr("Schedule"), schedule_},
        {"lr_decay_every", tr("Decay every"), decayEvery_}, {"lr_decay_gamma", tr("Decay factor"), decayGamma_},
        {"warmup_steps", tr("Warm-up steps"), warmup_}, {"l2", tr("L2 (eq. 4.1)"), l2_},
        {"weight_decay", tr("Weight decay"), weightDecay_}, {"clip_norm", tr("Clip gradients"), clipNorm_},
        {"steps", tr("Steps"), steps_},                 {"epochs", tr("Epochs"), epochs_},
        {"patience", tr("Patience"), patience_},        {"sampling", tr("Batches"), sampling_},
        {"batch_size", tr("Batch size"), batchSize_},   {"eval_every", tr("Eval every"), evalEvery_},
        {"log_every", tr("Log every"), logEvery_},      {"device", tr("Device"), device_},
        {"threads", tr("Threads"), threads_},           {"amp", tr("Precision"), amp_},
        {"tf32", tr("TF32"), tf32_},                    {"deterministic", tr("Reproducible"), deterministic_},
    };
    for (const auto& list : {data_->fields(), translation_->fields()})
        fields.insert(fields.end(), list.begin(), list.end());
    for (const auto& [name, label, widget] : fields) {
        if (key != name)
            continue;
        if (widget && widget->isEnabled() && widget->isVisible())
            widget->setFocus(Qt::OtherFocusReason);
        return label + text.mid(static_cast<int>(colon));
    }
    return text;
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

void SetupPanel::fillModels()
{
    const RegistryEntry* dataset = currentEntry(dataset_, Registry::datasets());
    const std::string task = dataset ? dataset->task : "classification";
    refill(model_, [&] {
        for (const auto& entry : Registry::models())
            if (entry.servesTask(task))
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
    frozenEncoder_->setEnabled(hasOption(model, "frozen_encoder"));
    // A pretrained model's sizes are its own (config.json): the form's sizes do not apply to it.
    for (QWidget* size : {static_cast<QWidget*>(dModel_), static_cast<QWidget*>(layers_), static_cast<QWidget*>(maxLength_)})
        size->setEnabled(!model || model->pretrained.empty());
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
    const RegistryEntry* model = currentEntry(model_, Registry::models());
    const RegistryEntry* entry = currentEntry(dataset_, Registry::datasets());
    const bool series = entry && entry->task == "regression";
    const bool translation = entry && entry->task == "translation";
    const bool sgd = optimizer_->currentData().toString() == QLatin1String("sgd");
    const bool decays = schedule_->currentData().toString() == QLatin1String("step");
    // A model's own rows by its registry options, so a new model's options appear by its entry alone.
    QHash<QWidget*, bool> applies = {
        {momentum_, sgd}, {decayEvery_, decays}, {decayGamma_, decays},
        {filters_, hasOption(model, "filters")}, {ffnHidden_, hasOption(model, "ffn_hidden")},
        {ffHidden_, hasOption(model, "ff_hidden")},
        {probes_, !series && !translation}, {pooling_, !translation}, {maxLength_, !translation},
    };
    data_->addApplicability(applies);
    translation_->addApplicability(applies, model, translation);
    translation_->setVisible(translation);
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
    TrainConfig config = data_->base(); // the file settings of the user's own data, if chosen
    config.model.model = model_->currentData().toString().toStdString();
    config.model.position = position_->currentData().toString().toStdString();
    config.model.dModel = dModel_->value();
    config.model.layers = layers_->value();
    config.model.rprClip = rprClip_->value();
    // Options the model does not have stay at their neutral values (decided by the registry, not by the
    // widgets' enabled state, which the locked form changes during a run).
    const RegistryEntry* entry = currentEntry(model_, Registry::models());
    config.model.heads = hasOption(entry, "heads") ? heads_->value() : 1;
    config.model.frozenEncoder = hasOption(entry, "frozen_encoder") && frozenEncoder_->isChecked();
    config.model.activation = hasOption(entry, "activation") ? activation_->currentData().toString().toStdString() : std::string();
    config.model.pooling = entry && !entry->pooling.empty() ? pooling_->currentData().toString().toStdString() : std::string();
    config.model.dropoutKeep = dropoutKeep_->value();
    config.model.maxLength = maxLength_->value();
    config.model.ffnHidden = ffnHidden_->value();
    config.model.ffHidden = ffHidden_->value();
    config.model.filters = filters_->value();
    translation_->apply(config, entry);
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
    config.tf32 = tf32_->isChecked();
    config.deterministic = deterministic_->isChecked();
    data_->apply(config);
    for (const QString& probe : probes_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (!probe.trimmed().isEmpty())
            config.probes.push_back(probe.trimmed().toStdString());
    return config;
}

void SetupPanel::setConfig(const TrainConfig& config)
{
    filling_ = true;
    data_->selectDataset(config.dataset);
    fillModels();
    selectData(model_, config.model.model);
    fillPositions();
    selectData(position_, config.model.position);
    dModel_->setValue(config.model.dModel);
    layers_->setValue(config.model.layers);
    rprClip_->setValue(config.model.rprClip);
    heads_->setValue(config.model.heads);
    frozenEncoder_->setChecked(config.model.frozenEncoder);
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
    translation_->load(config);
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
    tf32_->setChecked(config.tf32);
    deterministic_->setChecked(config.deterministic);
    data_->load(config);
    filling_ = false;
    updateDescriptions();
    data_->showStatistics();
    data_->showCoverage();
    emit changed();
}

void SetupPanel::setOwnData(const QString& datasetId, const DatasetOptions& file)
{
    const bool wasFilling = filling_;
    filling_ = true;
    data_->setOwnData(datasetId, file);
    filling_ = wasFilling;
    updateVisibility();
    if (!filling_)
        emit changed();
}

QString SetupPanel::summaryLine() const
{
    const TrainConfig c = config();
    return tr("%1 on %2 · %3 steps · d_model %4 · %5, lr %6 · seed %7")
        .arg(qs(Registry::modelLabel(c.model.model, c.model.position)), qs(Registry::nameOf(Registry::datasets(), c.dataset)))
        .arg(c.epochs > 0 ? tr("%1 epochs of").arg(c.epochs) + QLatin1Char(' ') + QString::number(c.steps) : QString::number(c.steps))
        .arg(c.model.dModel)
        .arg(qs(c.optimizer))
        .arg(c.learningRate)
        .arg(c.seed);
}

void SetupPanel::dataFilesChanged() { data_->dataFilesChanged(); }

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
            c.dataDir = data_->dataDir().toStdString();
        setConfig(c);
        setRepeats(preset.repeats);
        presets_->addRecentFile(path);
        emit message(tr("Opened the configuration %1").arg(path));
    } catch (const std::exception& e) {
        emit message(tr("Cannot open the configuration: %1").arg(qs(e.what())));
    }
}

} // namespace attnlab::ui
