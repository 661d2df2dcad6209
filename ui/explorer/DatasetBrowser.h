#pragma once
#include "core/data/TextExample.h"
#include "core/results/ExamplePrediction.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
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
// the browser is shown for a run.
class DatasetBrowser : public QWidget {
    Q_OBJECT
public:
    explicit DatasetBrowser(QWidget* parent = nullptr);
    ~DatasetBrowser() override;

    void setExplainer(std::shared_ptr<const ModelExplainer> explainer); // nullptr: nothing to browse
    void clear(const QString& why);
    bool isLoading() const;
    bool isLoaded() const { return loaded_; }
    int shownCount() const;
    // The split shown now: its examples' predictions and their confusion matrix [gold][predicted].
    const std::vector<ExamplePrediction>& predictions() const;
    std::vector<std::vector<std::int64_t>> confusion() const;
    // Parts by object name: browserSplit, browserShow, browserClass, browserFilter, browserTable,
    // browserConfusion, browserSummary.

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
    };
    void load();
    void showSplit();
    void updateSummary();
    void confusionClicked(int gold, int predicted);

    std::shared_ptr<const ModelExplainer> explainer_;
    bool loaded_ = false;
    Result data_;
    QComboBox* split_;
    QComboBox* show_;
    QComboBox* class_;
    QLineEdit* filter_;
    QLabel* summary_;
    QTableView* table_;
    QTableWidget* confusion_;
    ExamplePredictionModel* model_;
    ExampleFilterProxy* proxy_;
    QFutureWatcher<std::shared_ptr<Result>>* loading_;
};

} // namespace attnlab::ui
