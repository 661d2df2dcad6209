#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

class RunStore;

// What `attnlab-cli runs plot` asks for: one metric of some stored runs drawn to a file.
struct PlotRequest {
    std::vector<std::int64_t> runIds;   // all in the store (checked before)
    std::string split;                  // train, dev or test
    std::string metric;                 // loss, accuracy, macro_f1, rmse, mae, mape, learning_rate
    double smoothing = 0.0;             // [0, 1)
    std::string xAxis = "step";         // step, epoch or wall
    std::vector<std::string> groupBy;   // config keys; empty: one curve per run
    int width = 1200, height = 800, dpi = 96;
    std::string outPath;                // .png, .svg or .pdf
};

// Draws plots without a window. The command line has no Qt, so the drawing is an implementation that
// the program installs when it is built with the GUI (ui/analysis/CurvePlotRenderer, installed by
// app/cli_main.cpp); without one, runs plot says this attnlab-cli cannot draw.
class PlotRenderer {
public:
    virtual ~PlotRenderer() = default;
    // Returns "" when the file was written, else what went wrong.
    virtual std::string render(const RunStore& store, const PlotRequest& request) = 0;

    static void install(std::unique_ptr<PlotRenderer> renderer);
    static PlotRenderer* installed(); // null when none was installed
};

} // namespace attnlab
