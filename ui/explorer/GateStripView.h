#pragma once
#include "core/results/GateValues.h"

#include <QWidget>

#include <string>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QLabel;

namespace attnlab::ui {

// An LSTM's or GRU's gates over the typed sentence as a gate x token strip, one layer and direction at a time
// (the decks' picture of a cell at work: the forget gate held open across filler words). Each cell is a gate's
// mean over its units, or one unit's value; σ gates run 0 to 1, the candidate and the cell -1 to 1, on one
// diverging scale with the value written in. A model without gates gets the words saying so, not an empty plot.
class GateStripView : public QWidget {
    Q_OBJECT
public:
    explicit GateStripView(QWidget* parent = nullptr);
    void setGates(const GateValues& gates, const std::vector<std::string>& tokens, const QString& exportName);
    void clear(const QString& why);
    QCustomPlot* plot() const { return plot_; }
    int stripCount() const { return static_cast<int>(gates_.strips.size()); }
    // The value drawn for (gate, token) of the chosen strip and unit (the mean when unit is -1), for tests.
    double shownValue(int gate, int token) const;

Q_SIGNALS:
    void statusMessage(const QString& message);

private:
    void redraw();
    void exportStrip();

    GateValues gates_;
    std::vector<std::string> tokens_;
    QString exportName_;
    QComboBox* strip_;
    QComboBox* unit_;
    QLabel* placeholder_;
    QCustomPlot* plot_;
    QCPColorMap* map_;
};

} // namespace attnlab::ui
