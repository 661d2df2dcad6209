#pragma once
#include "core/platform/CancelToken.h"

#include <QDialog>
#include <QElapsedTimer>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTableView;
template <typename T>
class QFutureWatcher;

namespace attnlab::ui {

// Data → Datasets… (and the first start without real data): every dataset the engine knows, whether it is
// in the data folder, and a download (from the upstream URLs of its manifest, libcurl) or an import (a
// folder or archive the user already has, libarchive) with its progress and a Cancel, on a worker thread
// through core/data/install/DatasetInstaller, which checks every file's sha256 before putting it in place.
// It says what works without any download: the synthetic datasets and the lessons built on them.
// Parts by object name: datasetsTable, datasetsFolderLabel, datasetsIntro, downloadButton, importButton,
// cancelTransferButton, transferProgress, transferStatus, startLessonButton.
class DatasetsDialog : public QDialog {
    Q_OBJECT
public:
    // dataDir: the designer's data folder ("" = ATTNLAB_DATA_DIR, then ~/.local/share/attnlab/datasets).
    explicit DatasetsDialog(const QString& dataDir, QWidget* parent = nullptr);
    ~DatasetsDialog() override; // cancels a transfer and waits for it: no thread outlives the dialog

    // Whether any dataset with files (not the generated ones) is in the data folder's search path.
    static bool anyRealDataPresent(const QString& dataDir);
    QString targetDir() const;
    // Where downloads come from instead of each file's upstream URL (a mirror; tests use file://).
    void setUrlBase(const QString& urlBase) { urlBase_ = urlBase; }
    void selectDataset(const QString& id);
    void download();                        // the selected dataset
    void importFrom(const QString& source); // into the selected dataset
    void cancelTransfer();
    bool isTransferring() const { return transferring_; }

signals:
    void datasetsChanged();          // files were placed: statistics and lists may change
    void lessonRequested();          // "Start with a lesson": the built-in data, no download
    void transferFinished(bool ok);  // tests wait for it

protected:
    void reject() override; // Close while a transfer runs: cancel it first

private:
    void refresh();
    QString selectedId() const;
    void updateButtons();
    void start(const QString& id, const QString& source); // source empty: download
    void showProgress(const QString& file, int index, int count, qint64 done, qint64 total);

    QString dataDir_;
    QString urlBase_;
    QLabel* folder_;
    QTableView* table_;
    QStandardItemModel* model_;
    QPushButton* download_;
    QPushButton* import_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* status_;
    CancelToken cancelToken_;
    bool transferring_ = false;
    QFutureWatcher<QString>* watcher_; // the transfer's result: "" done, else what went wrong
};

} // namespace attnlab::ui
