#include "ui/analysis/CurvePlotRenderer.h"

#include "ui/analysis/ComparePanel.h"
#include "ui/analysis/CompareSeries.h"
#include "ui/analysis/PlotExporter.h"
#include "ui/analysis/RunCurves.h"

#include <QtWidgets/QApplication>

#include <memory>

namespace attnlab::ui {

std::string CurvePlotRenderer::render(const RunStore& store, const PlotRequest& request)
{
    std::unique_ptr<QApplication> app;
    if (!QCoreApplication::instance()) {
        // No display needed: a command line may run over ssh or in CI.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        static int argc = 1;
        static char name[] = "attnlab-cli";
        static char* argv[] = {name, nullptr};
        app = std::make_unique<QApplication>(argc, argv);
    }
    std::string problem;
    {
        QList<qint64> ids;
        for (std::int64_t id : request.runIds)
            ids.append(id);
        const QString metric = QString::fromStdString(request.metric);
        RunCurves curves = RunCurves::load(store, ids, RunCurves::metricOrder().contains(metric) ? QStringList{} : QStringList{metric});
        CompareOptions options;
        options.smoothing = request.smoothing;
        options.axis = request.xAxis == "epoch"  ? CompareAxis::Epoch
                       : request.xAxis == "wall" ? CompareAxis::WallTime
                                                 : CompareAxis::Step;
        for (const std::string& key : request.groupBy)
            options.groupBy.append(QString::fromStdString(key));
        options.splits = QStringList{QString::fromStdString(request.split)};
        curves.loadAxis(store, options.axis);

        // Laid out at the export's logical size, so the decimation and the legend's wrap fit the file.
        const double scale = request.dpi / 96.0;
        ComparePanel panel(metric);
        panel.resize(static_cast<int>(request.width / scale), static_cast<int>(request.height / scale));
        panel.setViewport(panel.rect());
        panel.setTitle(QStringLiteral("%1 %2").arg(QString::fromStdString(request.split),
                                                   ComparePanel::metricTitle(metric)));
        panel.setLegendLimit(30);
        const CompareAxis axis = CompareSeries::effectiveAxis(curves, options.axis);
        QString note;
        if (axis != options.axis)
            note = QCoreApplication::translate("attnlab::ui::CurvePlotRenderer",
                                               "x is the step: some runs were stored without %1 logs")
                       .arg(options.axis == CompareAxis::Epoch ? QStringLiteral("epoch") : QStringLiteral("wall-time"));
        panel.setSeries(CompareSeries::build(curves, metric, options), options, axis, note);
        if (metric == QLatin1String("grad_by_layer"))
            panel.setXLabels(curves.layerNames());
        if (metric == QLatin1String("forecast")) {
            const auto& attention = curves.forecastAttention();
            panel.setAttentionStrip(attention, attention.run >= 0 ? QStringLiteral("#%1").arg(curves.run(attention.run).id) : QString());
        }
        panel.replot();
        problem = PlotExporter::save({&panel}, QString::fromStdString(request.outPath), request.width, request.height,
                                     request.dpi)
                      .toStdString();
    }
    return problem;
}

} // namespace attnlab::ui
