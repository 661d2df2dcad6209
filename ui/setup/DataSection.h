#pragma once
#include "ui/LatestRequestRunner.h"
#include "ui/training/CoreMetaTypes.h"

#include <QGroupBox>
#include <QHash>
#include <QString>

#include <tuple>
#include <vector>

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
// cells, text columns; a translation's languages, word pieces and the synthetic tasks' sizes). SetupPanel owns the rest of the form and asks this section for the data keys.
class DataSection : public QGroupBox {
    Q_OBJECT
public:
    explicit DataSection(QWidget* parent = nullptr);

    QComboBox* datasetCombo() const { return dataset_; }
    QString dataDir() const; // the data folder as typed (trimmed); empty: ATTNLAB_DATA_DIR, then the XDG one
    // The configuration a run starts from: the own data's file settings for csv-text/csv-series, the
    // defaults otherwise; then apply() writes every data key the form shows.
    TrainConfig base() const;
    void apply(TrainConfig& config) const;
    void selectDataset(const std::string& id);
    void load(const TrainConfig& config); // the data widgets (the dataset is chosen by selectDataset)
    void setOwnData(const QString& datasetId, const DatasetOptions& file);
    void showStatistics(); // from the cache, or "computing…" and a request
    void showCoverage();   // computed on a worker thread once per (dataset, file)
    void dataFilesChanged(); // a download or import placed files: statistics and coverage are computed again

    // Row field -> advanced; and whether each data row applies to the chosen dataset (SetupPanel shows a
    // row when it applies and, if advanced, when advanced settings are shown).
    const QHash<QWidget*, bool>& advancedRows() const { return advancedRows_; }
    void addApplicability(QHash<QWidget*, bool>& applies) const;
    // The configuration keys this section sets, with the label of the row that sets each (SetupPanel's inFieldTerms).
    std::vector<std::tuple<const char*, QString, QWidget*>> fields() const;

signals:
    void importRequested(); // "Your own data…"

private:
    QComboBox* dataset_;
    QLabel* datasetStatistics_;
    QLineEdit* dataDir_; // where real data is looked for first; remembered in QSettings
    QLabel* ownDataLabel_;
    QLineEdit* embeddings_;
    QLabel* coverage_;
    QCheckBox* embeddingsFrozen_;
    QDoubleSpinBox* oovRange_;
    QCheckBox* phrases_;
    QCheckBox* lowercase_;
    QComboBox* tokenizer_;
    QCheckBox* orderDependent_;
    QSpinBox* distance_;
    QSpinBox* window_;
    QSpinBox* lag_;
    QComboBox* quoting_;
    QComboBox* missing_;
    QComboBox* categorical_;
    // Translation (issue 37): Multi30k's direction, words or SentencePiece pieces, the synthetic tasks' sizes.
    QComboBox* sourceLanguage_;
    QComboBox* targetLanguage_;
    QComboBox* subwords_;
    QSpinBox* subwordVocabulary_;
    QSpinBox* pairsTrain_;
    QSpinBox* pairsDev_;
    QSpinBox* pairsTest_;
    QSpinBox* minWords_;
    QSpinBox* maxWords_;
    QSpinBox* maxPairLength_;
    DatasetStatisticsCache* statistics_;
    TrainConfig ownData_; // the file settings of "Your own data…" (file, columns, delimiter, header, ...)
    QHash<QWidget*, bool> advancedRows_;
    QHash<QString, QString> coverageCache_; // "dataset|file" -> the coverage text
    LatestRequestRunner* coverageRunner_;
};

} // namespace attnlab::ui
