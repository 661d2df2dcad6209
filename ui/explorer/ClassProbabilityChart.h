#pragma once
#include <QWidget>

#include <string>
#include <vector>

class QCustomPlot;
class QCPBars;

namespace attnlab::ui {

// A model's class probabilities for one input as horizontal bars, the predicted class highlighted and
// every bar labelled with its percentage (near-equal bars are told apart by the numbers).
class ClassProbabilityChart : public QWidget {
    Q_OBJECT
public:
    explicit ClassProbabilityChart(QWidget* parent = nullptr);
    void setProbabilities(const std::vector<std::string>& classes, const std::vector<double>& probabilities, int predicted);
    void clear();
    std::vector<double> shownProbabilities() const; // what the bars draw, in class order
    QCustomPlot* plot() const { return plot_; }

private:
    QCustomPlot* plot_;
    QCPBars* bars_;
    QCPBars* predictedBar_;
};

} // namespace attnlab::ui
