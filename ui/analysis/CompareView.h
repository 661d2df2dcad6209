#pragma once
#include "ui/analysis/CompareOptions.h"
#include "ui/analysis/RunCurves.h"

#include <QtCore/QList>
#include <QtWidgets/QWidget>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSlider;

namespace attnlab {
class RunStore;
}

namespace attnlab::ui {

class ComparePanel;

// Many stored runs' curves overlaid, one panel per metric (loss, accuracy, macro-F1, RMSE, MAE, MAPE,
// learning rate, as present), like TensorBoard's scalars but drawn from every stored point: smoothing
// (TensorBoard's de-biased EMA, the raw curve faint behind), x as step / epoch / wall time, log y,
// grouping by config keys into mean ± std bands over all runs of a group, hover values, export.
// Controls (object names): smoothingSlider, xAxisCombo, logYCheck, groupByCombo, groupByEdit,
// exportButton, statusLabel, legend, and the panels panel_<metric> (ComparePanel).
// Reads through the GUI thread's store connection; never writes.
class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    void setStore(RunStore* store); // may be null: nothing to show
    void setRuns(const QList<qint64>& runIds);
    QList<qint64> runs() const { return runIds_; }
    void reload(); // reads the same runs again (e.g. after more points were stored)

    CompareOptions options() const { return options_; }
    void setSmoothing(double weight); // [0, 0.99]
    void setAxis(CompareAxis axis);
    void setLogY(bool on);
    void setGroupBy(const QStringList& keys); // config keys, e.g. {"model"}; empty: one curve per run

    QList<ComparePanel*> panels() const { return panels_; }
    ComparePanel* panel(const QString& metric) const; // null when not shown
    // How the panels thin long curves for the screen (the benchmark compares the three).
    void setSampling(DisplaySampling sampling);

    // Writes the panels (or only `only`) to a .png, .svg or .pdf at width × height pixels and dpi, in the
    // view's grid; returns "" or the error in words.
    QString exportTo(const QString& path, int width, int height, int dpi, ComparePanel* only = nullptr) const;
    // The export dialog, for every panel or only one; reports a failure in a message box.
    void openExportDialog(ComparePanel* only = nullptr);

private:
    void redraw();
    void rebuildPanels();
    void updateGroupChoices();
    void groupChoiceChanged();
    void showPanelMenu(ComparePanel* panel, const QPoint& at);
    int gridColumns() const;

    RunStore* store_ = nullptr;
    QList<qint64> runIds_;
    RunCurves curves_;
    CompareOptions options_;
    DisplaySampling sampling_ = DisplaySampling::PixelColumns;

    QSlider* smoothing_;
    QLabel* smoothingValue_;
    QComboBox* xAxis_;
    QCheckBox* logY_;
    QComboBox* groupBy_;
    QLineEdit* groupByEdit_;
    QPushButton* export_;
    QLabel* status_;
    QListWidget* legend_;
    QWidget* panelArea_;
    QGridLayout* grid_;
    QList<ComparePanel*> panels_;
};

} // namespace attnlab::ui
