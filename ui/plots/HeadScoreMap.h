#pragma once
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPItemText;

namespace attnlab::ui {

// One score per attention head as a layer x head heatmap (layers down, heads across, 1-based as everywhere in the
// window), 0 to 1 on a perceptual scale, the best head marked; a click on a cell names it (headClicked), so a view can
// knock that head out. What "which heads copy" draws for induction and previous-token scores.
class HeadScoreMap : public QWidget {
    Q_OBJECT
public:
    explicit HeadScoreMap(const QString& title, QWidget* parent = nullptr);
    void setScores(const std::vector<std::vector<double>>& scores); // [layer][head]
    void clear();
    QCustomPlot* plot() const { return plot_; }

Q_SIGNALS:
    void headClicked(int layer, int head); // 0-based

private:
    QString title_;
    QCustomPlot* plot_;
    QCPColorMap* map_;
    QCPItemText* best_;
    int layers_ = 0, heads_ = 0;
};

} // namespace attnlab::ui
