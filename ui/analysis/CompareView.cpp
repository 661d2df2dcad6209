#include "ui/analysis/CompareView.h"

#include "ui/analysis/ComparePanel.h"
#include "ui/analysis/CompareSeries.h"
#include "ui/analysis/ExportDialog.h"
#include "ui/analysis/PlotExporter.h"
#include "ui/analysis/RunPalette.h"

#include <QtCore/QDir>
#include <QtCore/QSignalBlocker>
#include <QtCore/QStandardPaths>
#include <QtGui/QPainter>
#include <QtGui/QPixmap>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QScrollArea>
#include <QtWidgets/QSlider>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {
namespace {

QIcon swatch(const QColor& colour)
{
    QPixmap pixmap(16, 16);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.fillRect(QRect(1, 6, 14, 4), colour);
    return QIcon(pixmap);
}

QString idList(const QList<qint64>& ids)
{
    QStringList parts;
    for (qint64 id : ids)
        parts.append(QString::number(id));
    return parts.join(QStringLiteral(", "));
}

} // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("compareView"));

    smoothing_ = new QSlider(Qt::Horizontal, this);
    smoothing_->setObjectName(QStringLiteral("smoothingSlider"));
    smoothing_->setRange(0, 99);
    smoothing_->setFixedWidth(140);
    smoothing_->setToolTip(tr("TensorBoard's smoothing: an exponential moving average, de-biased at the start"));
    smoothingValue_ = new QLabel(this);
    smoothingValue_->setObjectName(QStringLiteral("smoothingValue"));
    smoothingValue_->setMinimumWidth(32);

    xAxis_ = new QComboBox(this);
    xAxis_->setObjectName(QStringLiteral("xAxisCombo"));
    xAxis_->addItem(tr("step"), static_cast<int>(CompareAxis::Step));
    xAxis_->addItem(tr("epoch"), static_cast<int>(CompareAxis::Epoch));
    xAxis_->addItem(tr("wall time"), static_cast<int>(CompareAxis::WallTime));

    logY_ = new QCheckBox(tr("log y"), this);
    logY_->setObjectName(QStringLiteral("logYCheck"));

    groupBy_ = new QComboBox(this);
    groupBy_->setObjectName(QStringLiteral("groupByCombo"));
    groupBy_->setToolTip(tr("One mean curve per group with a ± std band over all its runs"));
    groupByEdit_ = new QLineEdit(this);
    groupByEdit_->setObjectName(QStringLiteral("groupByEdit"));
    groupByEdit_->setPlaceholderText(tr("config keys, e.g. model, learning_rate"));
    groupByEdit_->setMinimumWidth(160);

    export_ = new QPushButton(tr("Export…"), this);
    export_->setObjectName(QStringLiteral("exportButton"));
    export_->setToolTip(tr("Save every panel as PNG, SVG or PDF (right-click a panel for only that one)"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Smoothing:"), this));
    bar->addWidget(smoothing_);
    bar->addWidget(smoothingValue_);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("x:"), this));
    bar->addWidget(xAxis_);
    bar->addSpacing(12);
    bar->addWidget(logY_);
    bar->addStretch(1);
    bar->addWidget(export_);
    // Grouping on its own row, so the whole bar fits a 1280 px projector beside the run list.
    auto* groupBar = new QHBoxLayout;
    groupBar->addWidget(new QLabel(tr("Group by:"), this));
    groupBar->addWidget(groupBy_);
    groupBar->addWidget(groupByEdit_, 1);

    panelArea_ = new QWidget;
    panelArea_->setObjectName(QStringLiteral("comparePanels"));
    grid_ = new QGridLayout(panelArea_);
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setSpacing(4);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("compareScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panelArea_);

    legend_ = new QListWidget(this);
    legend_->setObjectName(QStringLiteral("legend"));
    legend_->setSelectionMode(QAbstractItemView::NoSelection);
    legend_->setMinimumWidth(150);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(scroll);
    splitter->addWidget(legend_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    splitter->setSizes({1000, 200});

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("statusLabel"));
    status_->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addLayout(groupBar);
    layout->addWidget(splitter, 1);
    layout->addWidget(status_);

    connect(smoothing_, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 100.0); });
    connect(xAxis_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] { setAxis(static_cast<CompareAxis>(xAxis_->currentData().toInt())); });
    connect(logY_, &QCheckBox::toggled, this, &CompareView::setLogY);
    connect(groupBy_, qOverload<int>(&QComboBox::activated), this, &CompareView::groupChoiceChanged);
    connect(groupByEdit_, &QLineEdit::editingFinished, this, [this] {
        QStringList keys;
        for (const QString& key : groupByEdit_->text().split(QLatin1Char(',')))
            if (!key.trimmed().isEmpty())
                keys.append(key.trimmed());
        if (keys != options_.groupBy)
            setGroupBy(keys);
    });
    connect(export_, &QPushButton::clicked, this, [this] { openExportDialog(); });

    setSmoothing(0.0);
    updateGroupChoices();
}

CompareView::~CompareView() = default;

void CompareView::setStore(RunStore* store)
{
    store_ = store;
    reload();
}

void CompareView::setRuns(const QList<qint64>& runIds)
{
    runIds_ = runIds;
    reload();
}

void CompareView::reload()
{
    curves_ = store_ ? RunCurves::load(*store_, runIds_) : RunCurves();
    updateGroupChoices();
    rebuildPanels();
    redraw();
}

void CompareView::setSmoothing(double weight)
{
    weight = std::clamp(weight, 0.0, 0.99);
    {
        const QSignalBlocker block(smoothing_);
        smoothing_->setValue(static_cast<int>(std::lround(weight * 100)));
    }
    smoothingValue_->setText(QString::number(weight, 'f', 2));
    if (weight == options_.smoothing && !panels_.isEmpty())
        return;
    options_.smoothing = weight;
    redraw();
}

void CompareView::setAxis(CompareAxis axis)
{
    {
        const QSignalBlocker block(xAxis_);
        xAxis_->setCurrentIndex(xAxis_->findData(static_cast<int>(axis)));
    }
    if (axis == options_.axis)
        return;
    options_.axis = axis;
    redraw();
}

void CompareView::setLogY(bool on)
{
    {
        const QSignalBlocker block(logY_);
        logY_->setChecked(on);
    }
    if (on == options_.logY)
        return;
    options_.logY = on;
    redraw();
}

void CompareView::setGroupBy(const QStringList& keys)
{
    options_.groupBy = keys;
    {
        const QSignalBlocker block(groupByEdit_);
        groupByEdit_->setText(keys.join(QStringLiteral(", ")));
    }
    {
        const QSignalBlocker block(groupBy_);
        groupBy_->setCurrentIndex(std::max(0, groupBy_->findData(keys.join(QLatin1Char(',')))));
    }
    redraw();
}

void CompareView::groupChoiceChanged()
{
    const QString keys = groupBy_->currentData().toString();
    setGroupBy(keys.isEmpty() ? QStringList() : keys.split(QLatin1Char(',')));
}

void CompareView::updateGroupChoices()
{
    const QSignalBlocker block(groupBy_);
    groupBy_->clear();
    groupBy_->addItem(tr("no grouping"), QString());
    QStringList choices{QStringLiteral("model"), QStringLiteral("position"), QStringLiteral("dataset"),
                        QStringLiteral("model,position")};
    for (const QString& key : curves_.differingKeys())
        if (!choices.contains(key))
            choices.append(key);
    for (const QString& keys : choices)
        groupBy_->addItem(QString(keys).replace(QLatin1Char(','), QStringLiteral(" + ")), keys);
    groupBy_->setCurrentIndex(std::max(0, groupBy_->findData(options_.groupBy.join(QLatin1Char(',')))));
}

ComparePanel* CompareView::panel(const QString& metric) const
{
    for (ComparePanel* p : panels_)
        if (p->metric() == metric)
            return p;
    return nullptr;
}

void CompareView::setSampling(DisplaySampling sampling)
{
    sampling_ = sampling;
    for (ComparePanel* p : panels_)
        p->setSampling(sampling);
}

int CompareView::gridColumns() const
{
    return panels_.size() > 1 ? 2 : 1;
}

void CompareView::rebuildPanels()
{
    const QStringList metrics = curves_.metrics();
    QStringList shown;
    for (ComparePanel* p : panels_)
        shown.append(p->metric());
    if (shown == metrics)
        return;
    qDeleteAll(panels_);
    panels_.clear();
    for (const QString& metric : metrics) {
        auto* p = new ComparePanel(metric, panelArea_);
        p->setMinimumHeight(280);
        p->setLegendLimit(8); // more runs than that: the list beside the panels names them
        p->setSampling(sampling_);
        connect(p, &QWidget::customContextMenuRequested, this,
                [this, p](const QPoint& at) { showPanelMenu(p, p->mapToGlobal(at)); });
        panels_.append(p);
    }
    for (int i = 0; i < panels_.size(); ++i)
        grid_->addWidget(panels_[i], i / gridColumns(), i % gridColumns());
}

void CompareView::redraw()
{
    if (store_)
        curves_.loadAxis(*store_, options_.axis);
    const CompareAxis axis = CompareSeries::effectiveAxis(curves_, options_.axis);
    QString note;
    if (axis != options_.axis) {
        const QList<qint64> without = curves_.runsWithoutAxis(options_.axis);
        note = options_.axis == CompareAxis::Epoch
                   ? tr("x is the step: run(s) %1 were stored without epoch logs").arg(idList(without))
                   : tr("x is the step: run(s) %1 were stored without wall-time logs").arg(idList(without));
    }
    legend_->clear();
    QList<QPair<QString, int>> labels;
    for (ComparePanel* p : panels_) {
        auto series = CompareSeries::build(curves_, p->metric(), options_);
        if (p->metric() == QLatin1String("grad_by_layer"))
            p->setXLabels(curves_.layerNames());
        if (p->metric() == QLatin1String("forecast")) {
            const auto& attention = curves_.forecastAttention();
            p->setAttentionStrip(attention, attention.run >= 0 ? QStringLiteral("#%1").arg(curves_.run(attention.run).id) : QString());
        }
        for (const PlotSeries& s : series)
            if (!labels.contains({s.label, s.colour}))
                labels.append({s.label, s.colour});
        p->setSeries(std::move(series), options_, axis, note);
        // A panel never shown replots when the layout first sizes it: replotting it now would draw
        // 100 runs once more at a size it never shows.
        if (!p->testAttribute(Qt::WA_PendingResizeEvent))
            p->replot(QCustomPlot::rpQueuedReplot);
    }
    for (const auto& [label, colour] : labels)
        legend_->addItem(new QListWidgetItem(swatch(RunPalette::colour(colour)), label));

    QStringList status;
    if (!store_)
        status.append(tr("No run store open."));
    else if (runIds_.isEmpty())
        status.append(tr("Select runs in the run list to compare their curves."));
    else
        status.append(tr("%n run(s)", "", curves_.size()));
    if (!options_.groupBy.isEmpty() && curves_.size() > 0) {
        QStringList groups;
        for (int r = 0; r < curves_.size(); ++r) {
            const QString g = CompareSeries::groupOf(curves_, r, options_.groupBy);
            if (!groups.contains(g))
                groups.append(g);
        }
        status.append(tr("%n group(s): mean ± std over all runs of each", "", static_cast<int>(groups.size())));
    }
    if (!curves_.missingIds().isEmpty())
        status.append(tr("not in the store: %1").arg(idList(curves_.missingIds())));
    if (!note.isEmpty())
        status.append(note);
    if (store_ && curves_.size() > 0 && panels_.isEmpty())
        status.append(tr("these runs stored no curves"));
    status_->setText(status.join(QStringLiteral(" · ")));
}

QString CompareView::exportTo(const QString& path, int width, int height, int dpi, ComparePanel* only) const
{
    QList<QCustomPlot*> plots;
    if (only)
        plots.append(only);
    else
        for (ComparePanel* p : panels_)
            plots.append(p);
    return PlotExporter::save(plots, path, width, height, dpi, only ? 1 : gridColumns());
}

void CompareView::openExportDialog(ComparePanel* only)
{
    QString folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (folder.isEmpty() || !QDir(folder).exists())
        folder = QDir::homePath();
    const QString name = only ? QStringLiteral("compare-%1.png").arg(only->metric()) : QStringLiteral("compare.png");
    ExportDialog dialog(QDir(folder).filePath(name), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString problem = exportTo(dialog.path(), dialog.exportWidth(), dialog.exportHeight(), dialog.dpi(), only);
    if (!problem.isEmpty())
        QMessageBox::warning(this, tr("Export"), problem);
}

void CompareView::showPanelMenu(ComparePanel* panel, const QPoint& at)
{
    QMenu menu(this);
    menu.addAction(tr("Export this panel…"), this, [this, panel] { openExportDialog(panel); });
    menu.addAction(tr("Export all panels…"), this, [this] { openExportDialog(); });
    menu.addSeparator();
    menu.addAction(tr("Fit to data"), this, [panel] {
        panel->fitToData();
        panel->replot();
    });
    menu.exec(at);
}

} // namespace attnlab::ui
