#pragma once
#include <QtCore/QString>

#include <functional>

class QCustomPlot;
class QWidget;

namespace attnlab::ui {

// A view's Export…: asks where and how (ExportDialog), saves the plot as PNG, SVG or PDF (PlotExporter) and
// its numbers as CSV beside it (same name, .csv). Returns the status bar's message: what was saved, or what
// went wrong; empty when the user cancelled.
class FigureExport {
public:
    static QString run(QWidget* parent, QCustomPlot* plot, const QString& suggestedFile, const std::function<QString()>& csv);
};

} // namespace attnlab::ui
