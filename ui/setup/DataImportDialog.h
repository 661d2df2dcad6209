#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/CsvPreview.h"
#include "ui/LatestRequestRunner.h"

#include <QDialog>
#include <QStringList>
#include <QTimer>

#include <memory>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QStandardItemModel;
class QTableView;

namespace attnlab::ui {

// Importing the user's own CSV/TSV, text classification (csv-text) or time series (csv-series), with a
// live preview: the first rows as CsvTable reads them, the detected delimiter, header and quoting, rows
// against lines, column roles chosen by clicking a column header, the split sizes of the real load
// (DatasetCatalog::loadAny through core/data/CsvPreview, so the preview is what training will read) and
// every problem with its file and line. Each change is previewed after a short pause on a QtConcurrent
// worker, one at a time, the latest request winning. OK is enabled only when the load succeeds.
class DataImportDialog : public QDialog {
    Q_OBJECT
public:
    explicit DataImportDialog(QWidget* parent = nullptr);
    ~DataImportDialog() override;

    // What was chosen: the dataset id ("csv-text" or "csv-series") and the options to load it with.
    QString datasetId() const;
    DatasetOptions options() const;

    // Starts with this one file (split by fractions) and task ("csv-text" or "csv-series").
    void setFile(const QString& path);
    void setDatasetId(const QString& id);
    // A preview is waiting for the pause to end or being computed; previewUpdated() follows.
    bool isBusy() const { return busy_; }
    // The preview on screen; nullptr before the first.
    const CsvPreview* preview() const { return preview_.get(); }

    // QSettings "import/recentFiles", most recent first, at most kMaxRecentFiles.
    static QStringList recentFiles();
    static constexpr int kMaxRecentFiles = 8;
    static constexpr int kDebounceMs = 150;
    static constexpr int kPreviewRows = 50;

public slots:
    void accept() override;

signals:
    void previewUpdated();

private:
    void buildWidgets();
    void restoreSettings();
    void saveSettings() const;
    void taskChanged();
    void layoutChanged();   // file, delimiter, header, quoting: columns may differ, roles are reset
    void schedule();        // a setting changed: preview after the pause
    void startPreview();
    void previewFinished(CsvPreview preview);
    void showPreview();
    void headerClicked(int section);
    void updateOk();
    QString browse(const QString& current);
    QString roleName(CsvPreview::Role role) const;

    QFormLayout* form_ = nullptr;
    QComboBox* task_ = nullptr;
    QComboBox* file_ = nullptr;
    QCheckBox* separate_ = nullptr;
    QWidget* splitFiles_ = nullptr;
    QLineEdit* trainFile_ = nullptr;
    QLineEdit* devFile_ = nullptr;
    QLineEdit* testFile_ = nullptr;
    QWidget* fractions_ = nullptr;
    QDoubleSpinBox* trainFraction_ = nullptr;
    QDoubleSpinBox* devFraction_ = nullptr;
    QComboBox* delimiter_ = nullptr;
    QComboBox* header_ = nullptr;
    QComboBox* quoting_ = nullptr;
    QComboBox* tokenizer_ = nullptr;
    QComboBox* missing_ = nullptr;
    QComboBox* categorical_ = nullptr;
    QSpinBox* window_ = nullptr;
    QLabel* detected_ = nullptr;
    QComboBox* role_ = nullptr;
    QTableView* table_ = nullptr;
    QStandardItemModel* model_ = nullptr;
    QLabel* counts_ = nullptr;
    QListWidget* problems_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;

    // Roles the user chose by clicking (column names as the preview shows them).
    QString textColumn_, labelColumn_, targetColumn_, sourceColumn_;
    QStringList drivers_, ignored_;

    QTimer debounce_;
    LatestRequestRunner* previewing_ = nullptr;
    bool busy_ = false;
    std::unique_ptr<CsvPreview> preview_;
};

} // namespace attnlab::ui
