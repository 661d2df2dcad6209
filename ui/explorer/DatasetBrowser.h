#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/TextExample.h"
#include "core/results/ExamplePrediction.h"

#include <QFutureWatcher>
#include <QWidget>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTableWidget;

namespace attnlab {
class ModelExplainer;
}

namespace attnlab::ui {

class ExampleFilterProxy;
class ExamplePredictionModel;

// The run's dev and test examples with what its model makes of them: gold class, prediction and
// confidence, filtered to the misclassified, the least confident first, a class, or words; a confusion
// matrix whose cells filter the list. Double-clicking an example opens it in the explorer. The dataset is
// read again from the run's configuration and every example predicted on a worker thread, the first time
// the browser is shown for a run. A run on the user's own file checks it first against the sha256 the run
// recorded: moved or changed since, the browser says so and offers to locate it (remembered per sha256 in
// QSettings, so the next time finds it) or, for a changed file, to list it as it is, saying so.
class DatasetBrowser : public QWidget {
    Q_OBJECT
public:
    explicit DatasetBrowser(QWidget* parent = nullptr);
    ~DatasetBrowser() override;

    // nullptr: nothing to browse. environmentJson: the run's stored environment (its data files' sha256).
    void setExplainer(std::shared_ptr<const ModelExplainer> explainer, const std::string& environmentJson = {});
    // The run's `key` file (file, train_file, ...) is read from `path` from now on: what Locate… does after
    // its file dialog. Checked against the recorded sha256 like the original, then loaded.
    void locateFile(const QString& key, const QString& path);
    void useChangedFile(); // lists the changed file as it is (the summary says it is not the run's)
    QString fileProblem() const { return fileProblem_; } // "" when the data is the run's, or not a file
    void clear(const QString& why);
    bool isLoading() const;
    bool isLoaded() const { return loaded_; }
    int shownCount() const;
    // The split shown now: its examples' predictions and their confusion matrix [gold][predicted].
    const std::vector<ExamplePrediction>& predictions() const;
    std::vector<std::vector<std::int64_t>> confusion() const;
    // Parts by object name: browserSplit, browserShow, browserClass, browserFilter, browserTable,
    // browserConfusion, browserSummary, browserLocate, browserUseChanged.

signals:
    void exampleChosen(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Split {
        std::vector<TextExample> examples;
        std::vector<ExamplePrediction> predictions;
    };
    struct Result {
        Split dev, test;
        QStringList classes;
        QString error;
        QString fileProblem, problemKey, problemSha256; // the data file moved or changed: nothing read
        bool problemIsChange = false;
        QString note; // read from a located or changed file
    };
    void load();
    void showSplit();
    void updateSummary();
    void confusionClicked(int gold, int predicted);

    std::shared_ptr<const ModelExplainer> explainer_;
    DatasetOptions options_;                        // the run's data settings, with located files
    std::map<std::string, std::string> recorded_;   // the run's data files' sha256
    bool acceptChanged_ = false;
    QString fileProblem_, problemKey_, problemSha256_;
    bool loaded_ = false;
    Result data_;
    QComboBox* split_;
    QComboBox* show_;
    QComboBox* class_;
    QLineEdit* filter_;
    QLabel* summary_;
    QPushButton* locate_;
    QPushButton* useChanged_;
    QTableView* table_;
    QTableWidget* confusion_;
    ExamplePredictionModel* model_;
    ExampleFilterProxy* proxy_;
    QFutureWatcher<std::shared_ptr<Result>>* loading_;
};

} // namespace attnlab::ui
