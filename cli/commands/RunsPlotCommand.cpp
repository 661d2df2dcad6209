#include "cli/commands/RunsPlotCommand.h"

#include "cli/CliFlags.h"
#include "cli/PlotRenderer.h"
#include "cli/commands/RunIds.h"
#include "core/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <set>
#include <stdexcept>

namespace attnlab {

int RunsPlotCommand::run(const std::vector<std::string>& args)
{
    for (const auto& a : args)
        if (a == "--help" || a == "-h") {
            out_ << "usage: attnlab-cli runs plot ID... --metric SPLIT_NAME --out FILE.png|svg|pdf [options]\n"
                 << "  draws the runs' stored curve of one metric, as the window's compare view does\n"
                 << "  --metric SPLIT_NAME   train_loss, dev_accuracy, dev_macro_f1, dev_rmse, dev_mae, dev_mape,\n"
                 << "                        train_learning_rate, test_accuracy, ... (split: train, dev, test);\n"
                 << "                        train_grad_norm, train_grad_norm.LAYER, train_grad_by_layer (x: the layers),\n"
                 << "                        dev_grad_by_distance (x: distance from the last word); --gradient-norms runs;\n"
                 << "                        test_forecast (a time-series run's test predictions against the real series),\n"
                 << "                        test_forecast_error (prediction less the real value),\n"
                 << "                        test_rmse_by_horizon (x: steps ahead; --horizon runs)\n"
                 << "  --smoothing W         TensorBoard's de-biased EMA, 0 (default) to 0.99\n"
                 << "  --x step|epoch|wall   the x axis (runs stored without epoch or wall-time logs: step)\n"
                 << "  --group-by KEY[,KEY]  one mean ± std band per group of config values (model, position, ...)\n"
                 << "  --width PX --height PX --dpi N   output size in pixels (default 1200 x 800 at 96 dpi)\n"
                 << "  --db FILE  --json\n";
            return 0;
        }
    PlotRenderer* renderer = PlotRenderer::installed();
    if (!renderer)
        throw std::runtime_error("this attnlab-cli was built without Qt; runs plot needs the GUI build "
                                 "(cmake -DATTNLAB_GUI=ON)");
    const CliFlags flags(args, {"--db", "--metric", "--out", "--smoothing", "--x", "--group-by", "--width", "--height", "--dpi"},
                         {"--json"}, 1u << 20);
    if (flags.positional().empty())
        throw CliUsageError("runs plot needs one or more run IDs");
    PlotRequest r;
    const std::string metric = flags.required("--metric");
    const auto underscore = metric.find('_');
    r.split = metric.substr(0, underscore);
    r.metric = underscore == std::string::npos ? "" : metric.substr(underscore + 1);
    const std::set<std::string> names{"loss", "accuracy", "macro_f1", "rmse", "mae", "mape", "learning_rate", "grad_norm",
                                      "grad_by_distance", "grad_by_layer", "forecast", "forecast_error",
                                      "rmse_by_horizon"};
    const bool layerNorm = r.metric.rfind("grad_norm.", 0) == 0 && r.metric.size() > 10; // grad_norm.<layer>
    if ((r.split != "train" && r.split != "dev" && r.split != "test") || !(names.count(r.metric) || layerNorm))
        throw CliUsageError("--metric expects SPLIT_NAME with split train, dev or test and name loss, accuracy, "
                            "macro_f1, rmse, mae, mape, learning_rate, grad_norm, grad_norm.LAYER, grad_by_layer, grad_by_distance, forecast, "
                            "forecast_error or rmse_by_horizon (e.g. dev_accuracy, test_forecast), "
                            "got '" + metric + "'");
    r.outPath = flags.required("--out");
    const auto dot = r.outPath.rfind('.');
    std::string format = dot == std::string::npos ? "" : r.outPath.substr(dot + 1);
    for (auto& c : format)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (format != "png" && format != "svg" && format != "pdf")
        throw CliUsageError("--out " + r.outPath + ": the file name must end in .png, .svg or .pdf");
    r.smoothing = flags.real("--smoothing", 0.0);
    if (!(r.smoothing >= 0.0 && r.smoothing <= 0.99))
        throw CliUsageError("--smoothing expects 0 to 0.99, got " + flags.text("--smoothing", ""));
    r.xAxis = flags.text("--x", "step");
    if (r.xAxis != "step" && r.xAxis != "epoch" && r.xAxis != "wall")
        throw CliUsageError("--x expects step, epoch or wall, got '" + r.xAxis + "'");
    if (flags.has("--group-by"))
        r.groupBy = flags.list("--group-by");
    r.width = static_cast<int>(flags.integer("--width", 1200));
    r.height = static_cast<int>(flags.integer("--height", 800));
    r.dpi = static_cast<int>(flags.integer("--dpi", 96));

    RunStore store(flags.text("--db", RunStore::defaultPath()));
    for (const auto& text : flags.positional())
        r.runIds.push_back(existingRun(store, runIdFrom(text)).id);
    const bool forecast = r.metric == "forecast" || r.metric == "forecast_error";
    if (forecast && r.split != "test")
        throw CliUsageError("--metric: a forecast is kept for the test split (test_forecast), got '" + metric + "'");
    if (forecast) { // kept as an analysis, not as metric rows
        std::vector<std::int64_t> with;
        for (auto id : r.runIds)
            if (store.analysis(id, "forecast", "test"))
                with.push_back(id);
        if (with.empty())
            throw std::runtime_error("no test forecast stored for the run(s) (time-series runs keep one since forecasts "
                                     "were added; train again)");
        if (with.size() < r.runIds.size())
            err_ << "note: " << r.runIds.size() - with.size() << " run(s) have no stored forecast\n";
        const std::string problem = renderer->render(store, r);
        if (!problem.empty())
            throw std::runtime_error(problem);
        if (flags.has("--json"))
            out_ << nlohmann::json{{"path", r.outPath}, {"format", format}, {"runs", r.runIds.size()}, {"width", r.width},
                                   {"height", r.height}, {"dpi", r.dpi}}.dump() << "\n";
        return 0;
    }
    // A gradient profile is stored one name per distance: a run has one when it has distance 0.
    const auto curves = store.curves(r.runIds, r.split, r.metric == "grad_by_distance" ? "grad_by_distance.0"
                                                              : r.metric == "grad_by_layer"  ? "grad_norm"
                                                              : r.metric == "rmse_by_horizon" ? "rmse.1"
                                                                                               : r.metric);
    std::string without;
    for (std::size_t i = 0; i < curves.size(); ++i)
        if (curves[i].empty())
            without += (without.empty() ? "" : ", ") + std::to_string(r.runIds[i]);
    if (without.size() && std::all_of(curves.begin(), curves.end(), [](const auto& c) { return c.empty(); }))
        throw std::runtime_error("no " + r.split + " " + r.metric + " points stored for run(s) " + without +
                                 " (runs show ID lists a run's metrics)");
    if (!without.empty())
        err_ << "note: run(s) " << without << " stored no " << r.split << " " << r.metric << " points\n";
    if (r.xAxis != "step") {
        const auto axis = store.curves(r.runIds, "train", r.xAxis == "epoch" ? "epoch" : "wall_seconds");
        if (std::any_of(axis.begin(), axis.end(), [](const auto& c) { return c.empty(); }))
            err_ << "note: some runs were stored without " << r.xAxis << " logs; x is the step\n";
    }
    const std::string problem = renderer->render(store, r);
    if (!problem.empty())
        throw std::runtime_error(problem);
    if (flags.has("--json"))
        out_ << nlohmann::json{{"path", r.outPath}, {"format", format}, {"runs", r.runIds.size()}, {"width", r.width},
                               {"height", r.height}, {"dpi", r.dpi}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else
        out_ << "wrote " << r.outPath << " (" << format << ", " << r.width << " x " << r.height << " px at " << r.dpi
             << " dpi, " << r.runIds.size() << " run" << (r.runIds.size() == 1 ? "" : "s") << ")\n";
    return 0;
}

} // namespace attnlab
