#pragma once
#include "ui/LatestRequestRunner.h"
#include "ui/setup/FormSection.h"
#include "ui/training/CoreMetaTypes.h"

#include <QHash>
#include <QString>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace attnlab::ui {

class DatasetStatisticsCache;

// The designer's Data group: the data folder, the dataset (with its statistics, computed once on a worker),
// "Your own data…" (the file settings the import dialog chose), word vectors (with their coverage of the
// dataset's words, computed on a worker once per dataset and file), and the options of each kind of data
// (SST phrases, tokens, the synthetic sets' order, distance and lag, a series' window, CSV quoting, missing
// cells, text columns; a translation's languages, word pieces and the synthetic tasks' sizes), each row a FormSetting
// shown by the chosen dataset.
class DataSection : public FormSection {
    Q_OBJECT
public:
    explicit DataSection(QWidget* parent = nullptr);

    QComboBox* datasetCombo() const { return dataset_; }
    QString dataDir() const; // the data folder as typed (trimmed); empty: ATTNLAB_DATA_DIR, then the XDG one
    // The configuration a run starts from: the own data's file settings for csv-text/csv-series/csv-pairs, the
    // defaults otherwise; then write() sets every data key the form shows.
    TrainConfig base() const;
    void selectDataset(const std::string& id);
    void read(const TrainConfig& config) override; // the data widgets (the dataset is chosen by selectDataset)
    void setOwnData(const QString& datasetId, const DatasetOptions& file);
    void showStatistics(); // from the cache, or "computing…" and a request
    void showCoverage();   // computed on a worker thread once per (dataset, file)
    void dataFilesChanged(); // a download or import placed files: statistics and coverage are computed again

signals:
    void importRequested(); // "Your own data…"

private:
    void addDatasetRows();
    void addTextRows();
    void addFileRows();
    void addTranslationRows();
    void addLanguageModelRows();
    QString datasetId() const;

    QComboBox* dataset_;
    QLabel* datasetStatistics_;
    QLineEdit* dataDir_; // where real data is looked for first; remembered in QSettings
    QLabel* ownDataLabel_;
    QLineEdit* embeddings_;
    QLabel* coverage_;
    DatasetStatisticsCache* statistics_;
    TrainConfig ownData_; // the file settings of "Your own data…" (file, columns, delimiter, header, ...)
    QHash<QString, QString> coverageCache_; // "dataset|file" -> the coverage text
    LatestRequestRunner* coverageRunner_;
};

} // namespace attnlab::ui
