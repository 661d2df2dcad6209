#pragma once
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace attnlab::ui {

// What the x axis of a comparison counts: the training step, the epoch or the wall time in seconds
// (the last two from the train/"epoch" and train/"wall_seconds" metrics the trainer logs).
enum class CompareAxis { Step, Epoch, WallTime };

// How long curves are thinned for the screen: min/max per pixel column (ours, the default),
// QCustomPlot's own adaptive sampling, or not at all. The last two exist to measure the first.
enum class DisplaySampling { PixelColumns, QCustomPlotAdaptive, None };

// How a comparison is drawn; shared by CompareView and the headless CurvePlotRenderer, so the window
// and `attnlab-cli runs plot` draw the same plot from the same settings.
struct CompareOptions {
    double smoothing = 0.0;        // TensorBoard's EMA weight, [0, 1)
    CompareAxis axis = CompareAxis::Step;
    bool logY = false;
    QStringList groupBy;           // config keys; empty: one curve per run
    QStringList splits{QStringLiteral("train"), QStringLiteral("dev"), QStringLiteral("test")};
};

} // namespace attnlab::ui
