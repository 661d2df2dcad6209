#pragma once
#include "ui/training/CoreMetaTypes.h"

#include <QHash>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace attnlab::ui {

class DataSection;
class TranslationSection;
class PresetChooser;

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

signals:
    void changed(); // any setting of the form
    void scenarioChosen(const std::vector<attnlab::TrainConfig>& configs, const QString& title, const QStringList& expected,
                        const QString& opens);
    void importRequested(); // "Your own data…"
    void message(const QString& text);

private:
    QWidget* buildModelBox();
    QWidget* buildTrainingBox();
    QWidget* buildComputeBox();
    void fillModels();            // the models for the chosen dataset's task (classification or time series)
    void fillPositions();         // the chosen model's techniques only
    void updateDescriptions();
    void updateVisibility();      // advanced rows, and rows that apply to the chosen dataset/model/optimizer
    void onOptimizerChanged();
    void watch(QWidget* widget);  // its edits emit changed()

    PresetChooser* presets_;
    DataSection* data_;      // the Data group: dataset, own data, word vectors, per-dataset options
    TranslationSection* translation_; // the Encoder-decoder group: a translation model's attention and decoding
    QComboBox* dataset_; // data_'s dataset combo
    QComboBox* model_;
    QComboBox* position_;
    QComboBox* optimizer_;
    QComboBox* device_;
    QSpinBox* dModel_;
    QSpinBox* layers_;
    QSpinBox* steps_;
    QSpinBox* epochs_;
    QSpinBox* batchSize_;
    QSpinBox* evalEvery_;
    QSpinBox* logEvery_;
    QSpinBox* seed_;
    QSpinBox* repeats_;
    QLineEdit* probes_; // TrainConfig::probes, ';'-separated
    QSpinBox* rprClip_;
    QSpinBox* heads_;          // enabled for models whose registry options include "heads"
    QCheckBox* frozenEncoder_; // enabled for models with a pretrained encoder ("frozen_encoder")
    QComboBox* activation_;    // "" = the model's default
    QComboBox* pooling_;       // the model's pooling choices; "" = its default
    QSpinBox* maxLength_;
    QSpinBox* ffnHidden_;
    QSpinBox* ffHidden_;
    QSpinBox* filters_;
    QSpinBox* threads_;
    QCheckBox* amp_;
    QCheckBox* tf32_;
    QCheckBox* deterministic_;
    QDoubleSpinBox* learningRate_;
    QDoubleSpinBox* momentum_;
    QDoubleSpinBox* l2_;
    QDoubleSpinBox* weightDecay_;
    QComboBox* schedule_;
    QSpinBox* decayEvery_;
    QDoubleSpinBox* decayGamma_;
    QSpinBox* warmup_;
    QDoubleSpinBox* clipNorm_;
    QSpinBox* patience_;
    QComboBox* sampling_;
    QDoubleSpinBox* dropoutKeep_;
    QCheckBox* dropoutPoints_[3]; // input, hidden, output: enabled per the model, checked per its defaults
    QString dropoutModel_;        // the model whose defaults the boxes show
    QLabel* description_;
    QCheckBox* advanced_;
    QWidget* form_;
    QHash<QWidget*, bool> advancedRows_; // row field -> is advanced
    bool filling_ = false; // setConfig in progress: no changed() per widget
};

} // namespace attnlab::ui
