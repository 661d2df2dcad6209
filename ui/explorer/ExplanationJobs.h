#pragma once
#include "core/results/ModelExplanation.h"
#include "core/results/PositionView.h"
#include "core/results/RunRecord.h"
#include "core/results/SentenceDeletionCurve.h"
#include "core/results/TokenAttribution.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {
class ModelExplainer;
}

namespace attnlab::ui {

class LatestRequestRunner;

// The Explorer's work off the GUI thread, the latest request winning each time: opening a run's chosen weights
// (hashing and reading a large file), then for a typed text its maps and prediction (a few ms) and, as a second
// request, the chosen explanation methods and their deletion curves (hundreds of ms), given up method by method
// once another text is asked for. Results arrive as signals on the GUI thread.
class ExplanationJobs : public QObject {
    Q_OBJECT
public:
    struct Attributed {
        std::string text;                           // the sentence they explain
        std::vector<TokenAttribution> attributions; // the chosen methods, on the predicted class
        std::vector<SentenceDeletionCurve> curves;  // their deletion curves on this sentence
        QString error;                              // why there are none
    };

    explicit ExplanationJobs(QObject* parent = nullptr);
    ~ExplanationJobs() override; // the runners wait for their work: it holds an explainer

    void load(const CheckpointRef& checkpoint);
    // The text's explanation with `explainer`, then `methods` on it (none: the maps alone).
    void explain(std::shared_ptr<const ModelExplainer> explainer, const QString& text, std::vector<std::string> methods);
    void discard(); // another run or weights file: nothing asked so far is wanted
    bool isBusy() const;

Q_SIGNALS:
    void loaded(std::shared_ptr<const ModelExplainer> explainer, std::vector<PositionView> positions);
    void loadFailed(const QString& message);
    // The maps and prediction; the methods follow in attributed() (when any were asked for and there are tokens).
    void explained(const ModelExplanation& explanation);
    void explainFailed(const QString& message);
    void attributed(const Attributed& result);

private:
    LatestRequestRunner* loading_;
    LatestRequestRunner* explaining_;
    LatestRequestRunner* attributing_;
    int typed_ = 0; // texts asked for so far; the worker reads the count through typedCount_
    std::shared_ptr<std::atomic<int>> typedCount_ = std::make_shared<std::atomic<int>>(0);
};

} // namespace attnlab::ui
