#pragma once
#include "ui/training/CoreMetaTypes.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace attnlab::ui {

class ComputeSection;
class DataSection;
class FormSection;
class ModelSection;
class PresetChooser;
class TrainingSection;
class TranslationSection;

// The experiment designer's form: "start from" a preset or lesson (PresetChooser), then data, model,
// training and compute, each with a basic part and an advanced one (Show advanced settings). Produces a
// TrainConfig with every setting the command line accepts; the window's toolbar holds Train and Stop.
class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget* parent = nullptr);
    ~SetupPanel() override;

    TrainConfig config() const;
    // An engine message that starts with a configuration key ("learning_rate: must be ...") in the form's
    // words: the field's label ("Learning rate: must be ..."); the field gets the focus. Unknown keys as given.
    QString inFieldTerms(const std::string& problem);
    void setConfig(const TrainConfig& config);
    int repeats() const; // runs of this configuration, seeds seed .. seed + repeats - 1
    void setRepeats(int repeats);
    // While a run is going the form is read-only.
    void setTrainingActive(bool active);
    bool advancedShown() const;
    void setAdvancedShown(bool shown);
    PresetChooser* presets() const { return presets_; }
    // The last configuration, repeats and advanced state are kept in QSettings ("designer/...").
    void saveSettings() const;
    void restoreSettings();
    // A preset/config JSON (what `attnlab-cli train --config` reads): written / read. Errors name the file.
    void saveConfigFile(const QString& path) const;
    void openConfigFile(const QString& path);
    // "Your own data": the dataset (csv-text or csv-series) and its file settings (file, columns, delimiter,
    // header, quoting, missing values, categorical, tokenizer) as the import dialog chose them.
    void setOwnData(const QString& datasetId, const DatasetOptions& file);
    // The designer in one line (presentation mode): "SSAN + Relative (RPR) on SST-fine · 600 steps · ...".
    QString summaryLine() const;
    // Files were downloaded or imported into the data folder: the dataset statistics are computed again.
    void dataFilesChanged();

    // The form's widgets are reached by their object names (datasetCombo, modelCombo, stepsSpin,
    // embeddingsEdit, repeatsSpin, advancedBox, dropoutInputBox, datasetStatisticsLabel, ...).
    // Its groups, each a table of FormSetting rows (the registry test walks them).
    const std::vector<FormSection*>& sections() const { return sections_; }

signals:
    void changed(); // any setting of the form
    void scenarioChosen(const std::vector<attnlab::TrainConfig>& configs, const QString& title, const QStringList& expected,
                        const QString& opens);
    void importRequested(); // "Your own data…"
    void message(const QString& text);

private:
    void fillModels();            // the models for the chosen dataset's task (classification or time series)
    void updateDescriptions();
    void updateVisibility();      // advanced rows, and rows that apply to the chosen dataset/model/optimizer
    void watch(QWidget* widget);  // its edits emit changed()

    PresetChooser* presets_;
    DataSection* data_;      // the Data group: dataset, own data, word vectors, per-dataset options
    ModelSection* model_;    // the Model group: architecture, position, the model's options
    TranslationSection* translation_; // the Encoder-decoder group: a translation model's attention and decoding
    TrainingSection* training_;
    ComputeSection* compute_;
    std::vector<FormSection*> sections_; // data, model, encoder-decoder, training, compute: written and read in this order
    QComboBox* dataset_; // data_'s dataset combo
    QLabel* description_;
    QCheckBox* advanced_;
    QWidget* form_;
    bool filling_ = false; // setConfig in progress: no changed() per widget
};

} // namespace attnlab::ui
