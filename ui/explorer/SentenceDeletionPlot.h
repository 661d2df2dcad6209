#pragma once
#include "core/results/SentenceDeletionCurve.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QLabel;

namespace attnlab::ui {

// The typed sentence's deletion curves (FaithfulnessEvaluator::deletionCurves): the explained class's
// probability as the sentence's tokens are replaced by <unk>, each method's most important first. A method
// whose curve falls fastest found the tokens the prediction rests on; its AOPC (mean drop) is in the legend.
// Exports as PNG/SVG/PDF with the curves' numbers as CSV. Parts: sentenceDeletionPlot, sentenceDeletionNote,
// sentenceDeletionExport.
class SentenceDeletionPlot : public QWidget {
    Q_OBJECT
public:
    explicit SentenceDeletionPlot(QWidget* parent = nullptr);

    void setCurves(const std::vector<SentenceDeletionCurve>& curves, const std::vector<std::string>& tokens,
                   const QString& className);
    void showPlaceholder(const QString& text);
    const std::vector<SentenceDeletionCurve>& curves() const { return curves_; }
    QCustomPlot* plot() const { return plot_; }

signals:
    void statusMessage(const QString& text);

private:
    void exportCurves();

    QCustomPlot* plot_;
    QLabel* note_;
    std::vector<SentenceDeletionCurve> curves_;
    std::vector<std::string> tokens_;
};

} // namespace attnlab::ui
