#include "ui/setup/SetupPanel.h"

#include "core/config/Registry.h"
#include "core/config/TrainPreset.h"
#include "ui/StdStrings.h"
#include "ui/setup/ComputeSection.h"
#include "ui/setup/DataSection.h"
#include "ui/setup/FormWidgets.h"
#include "ui/setup/ModelSection.h"
#include "ui/setup/PresetChooser.h"
#include "ui/setup/TrainingSection.h"
#include "ui/setup/TranslationSection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <utility>
#include <vector>

namespace attnlab::ui {

using namespace form;

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("setupPanel"));
    form_ = new QWidget(this);
    form_->setObjectName(QStringLiteral("setupForm"));
    presets_ = new PresetChooser(form_);

    advanced_ = check(form_, "advancedBox", tr("Show advanced settings"),
                      tr("Every setting the command line accepts: embeddings, schedules, clipping, patience, sampling, ..."));
    data_ = new DataSection(form_);
    dataset_ = data_->datasetCombo();
    model_ = new ModelSection(form_);
    translation_ = new TranslationSection(form_);
    training_ = new TrainingSection(form_);
    compute_ = new ComputeSection(form_);
    sections_ = {data_, model_, translation_, training_, compute_};

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
    for (FormSection* section : sections_)
        formLayout->addWidget(section);
    formLayout->addWidget(description_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(form_, 1);
    // Never squeezed below what its rows need: in the designer's scroll area the form scrolls instead.
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    formLayout->setSizeConstraint(QLayout::SetMinimumSize);

    connect(dataset_, &QComboBox::currentIndexChanged, this, &SetupPanel::fillModels);
    connect(data_, &DataSection::importRequested, this, &SetupPanel::importRequested);
    connect(model_, &ModelSection::modelChanged, this, &SetupPanel::updateDescriptions);
    connect(model_, &ModelSection::positionChanged, this, &SetupPanel::updateDescriptions);
    connect(training_, &TrainingSection::rowsChanged, this, &SetupPanel::updateVisibility);
    connect(translation_, &TranslationSection::alignmentChanged, this, &SetupPanel::updateVisibility);
    connect(advanced_, &QCheckBox::toggled, this, &SetupPanel::updateVisibility);
    connect(presets_, &PresetChooser::presetChosen, this, [this](const TrainConfig& config, int repeats) {
        TrainConfig c = config;
        c.dataDir = data_->dataDir().toStdString(); // the user's data folder stays
        c.threads = this->config().threads;
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

QString SetupPanel::inFieldTerms(const std::string& problem)
{
    const auto colon = problem.find(':');
    const QString text = QString::fromStdString(problem);
    if (colon == std::string::npos)
        return text;
    const std::string key = problem.substr(0, colon);
    // The configuration keys the form sets, with the label of the row that sets each.
    const auto answer = [&](const QString& label, QWidget* widget) {
        if (widget && widget->isEnabled() && widget->isVisible())
            widget->setFocus(Qt::OtherFocusReason);
        return label + text.mid(static_cast<int>(colon));
    };
    for (const FormSection* section : sections_)
        if (const FormSetting* setting = section->find(key))
            return answer(setting->label, setting->field);
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
    model_->fillModels(dataset ? dataset->task : TaskKind::Classification);
    updateDescriptions();
}

void SetupPanel::updateDescriptions()
{
    QStringList parts;
    const auto describe = [&parts](const QString& what, const std::string* description) {
        if (description)
            parts << QStringLiteral("<b>%1</b> — %2").arg(what, qs(*description).toHtmlEscaped());
    };
    const auto descriptionOf = [](const auto* entry) { return entry ? &entry->description : nullptr; };
    QComboBox* model = model_->modelCombo();
    QComboBox* position = model_->positionCombo();
    describe(dataset_->currentText().toHtmlEscaped(), descriptionOf(currentEntry(dataset_, Registry::datasets())));
    describe(model->currentText().toHtmlEscaped(), descriptionOf(currentEntry(model, Registry::models())));
    describe(position->currentText().toHtmlEscaped(), descriptionOf(currentEntry(position, Registry::positions())));
    description_->setText(parts.join(QStringLiteral("<br><br>")));
    for (QComboBox* combo : {dataset_, model, position})
        combo->setToolTip(combo->currentData(Qt::ToolTipRole).toString());
    updateVisibility();
}

void SetupPanel::updateVisibility()
{
    // A row is shown when it applies to the chosen dataset and model (the model's rows by its registry
    // options), and, if advanced, when asked for.
    const RegistryEntry* entry = currentEntry(dataset_, Registry::datasets());
    const TaskKind task = entry ? entry->task : TaskKind::Classification;
    const bool showAdvanced = advanced_->isChecked();
    for (FormSection* section : sections_)
        section->showRows(model_->model(), task, showAdvanced);
    translation_->setVisible(task == TaskKind::Translation);
}

TrainConfig SetupPanel::config() const
{
    TrainConfig config = data_->base(); // the file settings of the user's own data, if chosen
    for (const FormSection* section : sections_)
        section->write(config, model_->model());
    return config;
}

void SetupPanel::setConfig(const TrainConfig& config)
{
    filling_ = true;
    data_->selectDataset(config.dataset);
    fillModels();
    for (FormSection* section : sections_)
        section->read(config);
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

int SetupPanel::repeats() const { return training_->repeats(); }
void SetupPanel::setRepeats(int repeats) { training_->setRepeats(repeats); }
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
        // The form offers only the models of the dataset's task, so a file that names another would be
        // opened as a different model without a word: refused instead, the form as it was.
        if (const std::string problem = Registry::taskProblem(c.model.model, c.dataset); !problem.empty()) {
            emit message(tr("Cannot open the configuration: %1: %2").arg(path, qs(problem)));
            return;
        }
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
