#pragma once
#include "core/results/TokenAttribution.h"

#include <QWidget>

#include <string>
#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPItemText;

namespace attnlab::ui {

// One sentence's tokens shaded by several explanation methods, a row each (LIT's salience rows): the cell
// of token i in a method's row is coloured by that method's score / the row's largest |score|, orange for
// the class, blue against it, white for nothing, with the token written in it. Rows are scaled one by one
// because the methods' units differ (attention weights sum to 1, gradients do not); the exact scores are
// in the CSV export. Methods without scores (rollout of an LSTM) get no row. Object name attributionRows;
// its plot attributionRowsPlot (for PlotExporter).
class AttributionRowsPlot : public QWidget {
    Q_OBJECT
public:
    explicit AttributionRowsPlot(QWidget* parent = nullptr);

    void setAttributions(const std::vector<TokenAttribution>& attributions);
    void showPlaceholder(const QString& text);
    QCustomPlot* plot() const { return plot_; }

    // What is drawn (tests): the methods of the rows, top first, and each row's shades in [-1, 1].
    const std::vector<std::string>& rowMethods() const { return methods_; }
    const std::vector<std::vector<double>>& shades() const { return shades_; }
    QString placeholderText() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitLabels();

    QCustomPlot* plot_;
    QCPColorMap* map_;
    QCPItemText* placeholder_;
    std::vector<std::string> methods_;
    std::vector<std::vector<double>> shades_;
    std::vector<std::vector<std::string>> tokens_;
    std::vector<QCPItemText*> labels_;
};

} // namespace attnlab::ui
