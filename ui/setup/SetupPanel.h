#pragma once
#include "core/config/TrainConfig.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace attnlab::ui {

class DatasetStatisticsCache;

// The experiment form: dataset, architecture, position technique (all from the Registry), sizes,
// optimiser and device. Produces a TrainConfig; Train and Stop live here too.
class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget* parent = nullptr);

    TrainConfig config() const;
    void setConfig(const TrainConfig& config);
    // While a run is going the form is read-only and only Stop is enabled.
    void setTrainingActive(bool active);

    // The form's widgets are reached by their object names (datasetCombo, modelCombo, stepsSpin, trainButton,
    // dropoutInputBox, datasetStatisticsLabel, datasetStatisticsCache, ...). Stop is the one the window
    // reaches itself: it disables it while a stopped run winds down.
    QPushButton* stopButton() const { return stop_; }

signals:
    void trainRequested();
    void stopRequested();

private:
    void fillModels();            // the models for the chosen dataset's task (classification or time series)
    void fillPositions();         // the chosen model's techniques only
    void updateDescriptions();
    void showDatasetStatistics(); // from the cache, or "computing…" and a request
    void onOptimizerChanged();

    QComboBox* dataset_;
    QComboBox* model_;
    QComboBox* position_;
    QComboBox* optimizer_;
    QComboBox* device_;
    QSpinBox* dModel_;
    QSpinBox* layers_;
    QSpinBox* steps_;
    QSpinBox* batchSize_;
    QSpinBox* evalEvery_;
    QSpinBox* seed_;
    QLineEdit* probes_; // TrainConfig::probes, ';'-separated
    QSpinBox* rprClip_;
    QSpinBox* heads_;          // enabled for models whose registry options include "heads"
    QComboBox* activation_;    // "" = the model's default
    QComboBox* pooling_;       // the model's pooling choices; "" = its default
    QSpinBox* threads_;
    QDoubleSpinBox* learningRate_;
    QDoubleSpinBox* dropoutKeep_;
    QCheckBox* dropoutPoints_[3]; // input, hidden, output: enabled per the model, checked per its defaults
    QString dropoutModel_;        // the model whose defaults the boxes show
    QLabel* description_;
    QLabel* datasetStatistics_;
    QLineEdit* dataDir_; // where real data is looked for first; remembered in QSettings
    DatasetStatisticsCache* statistics_;
    QWidget* form_;
    QPushButton* train_;
    QPushButton* stop_;
};

} // namespace attnlab::ui
