#pragma once
#include "ui/analysis/PlotExporter.h"

#include <QtWidgets/QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace attnlab::ui {

// Asks where and how to export plots: file, format (PNG, SVG, PDF), width and height in pixels and the
// resolution. Controls: exportPathEdit, exportFormatCombo, exportWidthSpin, exportHeightSpin, exportDpiSpin.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(const QString& path, QWidget* parent = nullptr);

    QString path() const;
    PlotExporter::Format format() const;
    int exportWidth() const;
    int exportHeight() const;
    int dpi() const;

private:
    void formatChanged();
    void browse();

    QLineEdit* path_;
    QComboBox* format_;
    QSpinBox* width_;
    QSpinBox* height_;
    QSpinBox* dpi_;
};

} // namespace attnlab::ui
