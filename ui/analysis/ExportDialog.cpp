#include "ui/analysis/ExportDialog.h"

#include <QtCore/QFileInfo>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>

namespace attnlab::ui {

ExportDialog::ExportDialog(const QString& path, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export plots"));
    path_ = new QLineEdit(path, this);
    path_->setObjectName(QStringLiteral("exportPathEdit"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(QStringLiteral("exportBrowseButton"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse);

    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("exportFormatCombo"));
    format_->addItem(tr("PNG image"), static_cast<int>(PlotExporter::Format::Png));
    format_->addItem(tr("SVG (vector)"), static_cast<int>(PlotExporter::Format::Svg));
    format_->addItem(tr("PDF (vector)"), static_cast<int>(PlotExporter::Format::Pdf));
    PlotExporter::Format given;
    if (PlotExporter::formatOf(path, given))
        format_->setCurrentIndex(format_->findData(static_cast<int>(given)));

    auto spin = [this](const char* name, int low, int high, int value, const QString& suffix) {
        auto* s = new QSpinBox(this);
        s->setObjectName(QLatin1String(name));
        s->setRange(low, high);
        s->setValue(value);
        s->setSuffix(suffix);
        return s;
    };
    width_ = spin("exportWidthSpin", 16, 20000, 1800, tr(" px"));
    height_ = spin("exportHeightSpin", 16, 20000, 1200, tr(" px"));
    dpi_ = spin("exportDpiSpin", 24, 2400, 150, tr(" dpi"));

    auto* form = new QFormLayout(this);
    form->addRow(tr("File:"), pathRow);
    form->addRow(tr("Format:"), format_);
    form->addRow(tr("Width:"), width_);
    form->addRow(tr("Height:"), height_);
    form->addRow(tr("Resolution:"), dpi_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    form->addRow(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(format_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ExportDialog::formatChanged);
    formatChanged();
}

QString ExportDialog::path() const
{
    return path_->text();
}

PlotExporter::Format ExportDialog::format() const
{
    return static_cast<PlotExporter::Format>(format_->currentData().toInt());
}

int ExportDialog::exportWidth() const
{
    return width_->value();
}

int ExportDialog::exportHeight() const
{
    return height_->value();
}

int ExportDialog::dpi() const
{
    return dpi_->value();
}

void ExportDialog::formatChanged()
{
    // The file name follows the format, so what is written is what its name says.
    const QFileInfo info(path_->text());
    const QString base = info.path() + QLatin1Char('/') + info.completeBaseName();
    path_->setText(base + QLatin1Char('.') + PlotExporter::extension(format()));
}

void ExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export plots"), path_->text(),
                                                        tr("PNG image (*.png);;SVG (*.svg);;PDF (*.pdf)"));
    if (chosen.isEmpty())
        return;
    PlotExporter::Format f;
    if (PlotExporter::formatOf(chosen, f))
        format_->setCurrentIndex(format_->findData(static_cast<int>(f)));
    path_->setText(chosen);
    formatChanged();
}

} // namespace attnlab::ui
