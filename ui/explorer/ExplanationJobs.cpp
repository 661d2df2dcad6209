#include "ui/explorer/ExplanationJobs.h"

#include "core/training/FaithfulnessEvaluator.h"
#include "core/training/ModelExplainer.h"
#include "ui/LatestRequestRunner.h"

namespace attnlab::ui {

ExplanationJobs::ExplanationJobs(QObject* parent) : QObject(parent)
{
    loading_ = new LatestRequestRunner(this);
    explaining_ = new LatestRequestRunner(this);
    attributing_ = new LatestRequestRunner(this);
    connect(loading_, &LatestRequestRunner::failed, this, &ExplanationJobs::loadFailed);
    connect(explaining_, &LatestRequestRunner::failed, this, &ExplanationJobs::explainFailed);
}

ExplanationJobs::~ExplanationJobs() = default;

bool ExplanationJobs::isBusy() const
{
    return explaining_->isBusy() || attributing_->isBusy() || loading_->isBusy();
}

void ExplanationJobs::discard()
{
    loading_->discard();
    explaining_->discard();
    attributing_->discard();
}

void ExplanationJobs::load(const CheckpointRef& checkpoint)
{
    discard(); // another weights file was chosen: the one opening is not wanted any more
    loading_->request([this, checkpoint]() -> LatestRequestRunner::Delivery {
        auto explainer = std::make_shared<const ModelExplainer>(checkpoint); // throws: loadFailed()
        auto positions = std::make_shared<std::vector<PositionView>>(explainer->positionViews());
        return [this, explainer, positions] { emit loaded(explainer, *positions); };
    });
}

void ExplanationJobs::explain(std::shared_ptr<const ModelExplainer> explainer, const QString& text,
                              std::vector<std::string> methods)
{
    const int asked = ++typed_;
    typedCount_->store(asked); // a running explanation of an earlier text stops at its next method
    explaining_->request([this, explainer, text, methods, asked]() -> LatestRequestRunner::Delivery {
        auto out = std::make_shared<ModelExplanation>(explainer->explain(text.toStdString()));
        return [this, out, explainer, methods, asked] {
            emit explained(*out);
            attributing_->discard();
            if (methods.empty() || out->tokens.empty())
                return;
            attributing_->request([this, explainer, text = out->text, methods, asked, typed = typedCount_]() -> LatestRequestRunner::Delivery {
                auto result = std::make_shared<Attributed>();
                result->text = text;
                try { // the predicted class, as the faithfulness curves follow it
                    // One method at a time, given up once another text is asked for: the explainer answers one call
                    // at a time, and the next text's maps should not wait for all of this one's methods.
                    for (const auto& method : methods) {
                        if (typed->load() != asked)
                            return [] {};
                        for (auto& a : explainer->attribute(text, {method}))
                            result->attributions.push_back(std::move(a));
                    }
                    result->curves = FaithfulnessEvaluator(*explainer).deletionCurves(result->attributions);
                } catch (const std::exception& e) { // the maps stand; the attribution panel says why it is empty
                    result->error = QString::fromStdString(e.what());
                }
                return [this, result] { emit attributed(*result); };
            });
        };
    });
}

} // namespace attnlab::ui
