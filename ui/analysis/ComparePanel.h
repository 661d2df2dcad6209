#pragma once
#include "ui/analysis/CompareSeries.h"
#include "ui/analysis/RunCurves.h"

#include <qcustomplot.h>

#include <memory>
#include <vector>

namespace attnlab::ui {

class ForecastAttentionStrip;

// One metric of a comparison (object name panel_<metric>): every run's or group's curve per split (train
// solid, dev dashed, test a star at its step), the raw curve faint behind a smoothed one, a group's
// ± std band as a fill between two graphs. Graph object names: "train_r12" (run 12's train curve),
// "raw_train_r12", "test_r12"; for groups "dev_g0", "upper_dev_g0", "lower_dev_g0".
// Long curves are drawn decimated to the visible pixel columns (CurveDecimator), redone on zoom and
// resize; hover shows the nearest stored point.
class ComparePanel : public QCustomPlot {
    Q_OBJECT
public:
    explicit ComparePanel(const QString& metric, QWidget* parent = nullptr);
    ~ComparePanel() override;

    const QString& metric() const { return metric_; }
    static QString metricTitle(const QString& metric); // "accuracy", "macro-F1", "learning rate", ...

    // Replaces what is drawn. `axis` is the x axis in use; `note` a line under the title (e.g. why the
    // x axis fell back to steps). Does not replot.
    void setSeries(std::vector<PlotSeries> series, const CompareOptions& options, CompareAxis axis,
                   const QString& note = {});
    void setTitle(const QString& title);
    // "forecast": the attention of one run's predictions in a strip under the time axis (ForecastAttentionStrip);
    // attention without rows removes the strip. `runLabel` names the run.
    void setAttentionStrip(const RunCurves::ForecastAttention& attention, const QString& runLabel);
    QCPColorMap* attentionStrip() const; // nullptr when none is shown
    // Names for the x axis' integer positions (the layers of "grad_by_layer"); empty: numbers.
    void setXLabels(const QStringList& labels);
    QString note() const;
    // How many runs or groups the plot's own legend names (the split keys always show); more than that,
    // and it says how many it leaves to the view's legend.
    void setLegendLimit(int entries);
    // PixelColumns by default; the others hand QCustomPlot every point (for measuring what ours saves).
    void setSampling(DisplaySampling sampling);
    bool isDecimated() const; // whether any graph is drawn from fewer points than it has

    // Fits both axes to the data (double-click does the same).
    void fitToData();
    // The nearest point to a pixel (within ~12 px), as the hover tooltip shows it; "" when none is near.
    QString pointText(const QPointF& pixel) const;

protected:
    // A resize only marks the plot for a replot at the next paint: while a layout settles, a panel is
    // resized two or three times before it is shown, and each QCustomPlot resize replotted every curve.
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    enum class Role { Line, Raw, Points, Upper, Lower };
    struct Drawn {
        QCPGraph* graph = nullptr;
        Role role = Role::Line;
        int series = 0;
        std::vector<double> x, y, std; // full data; std (groups) for the hover text
        std::vector<int> n;
    };

    void redecimate();
    void rebuildLegend();
    void wrapLegend(int plotWidth);
    // How many legend entries fill a third of a panel of this size.
    static int legendEntriesThatFit(const QSize& size);
    QCPGraph* addCurveGraph(const QString& name);
    int columns() const;

    QString metric_;
    QCPTextElement* title_;
    QCPTextElement* note_;
    QCPLegend* legend_;
    std::vector<PlotSeries> series_;
    std::vector<Drawn> drawn_;
    bool replotBeforePaint_ = false;
    bool painting_ = false;      // inside paintEvent's replot
    bool curvesSkipped_ = false; // the replot under way leaves the curves out (hidden panel)
    std::vector<QCPGraph*> legendGraphs_; // data-less graphs that only carry legend entries
    CompareAxis axis_ = CompareAxis::Step;
    int legendLimit_ = 12;
    int legendFits_ = 0; // legendEntriesThatFit when the legend was last built
    int decimatedColumns_ = 0;
    DisplaySampling sampling_ = DisplaySampling::PixelColumns;
    bool holdsAll_ = false; // the graphs hold every point (sampling other than ours)
    bool logY_ = false;
    QStringList xLabels_;
    std::unique_ptr<ForecastAttentionStrip> strip_;
};

} // namespace attnlab::ui
