#include "ui/explorer/PositionTechniqueView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {
namespace {

// Every n-th label, so that at most ~16 ticks are written on an axis.
QSharedPointer<QCPAxisTickerText> ticks(const std::vector<std::string>& labels)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const std::size_t every = std::max<std::size_t>(1, (labels.size() + 15) / 16);
    for (std::size_t i = 0; i < labels.size(); i += every)
        ticker->addTick(static_cast<double>(i), QString::fromStdString(labels[i]));
    return ticker;
}

} // namespace

PositionTechniqueView::PositionTechniqueView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("positionTechniqueView"));
    selector_ = new QComboBox(this);
    selector_->setObjectName(QStringLiteral("positionViewSelector"));
    about_ = new QLabel(this);
    about_->setObjectName(QStringLiteral("positionViewAbout"));
    about_->setWordWrap(true);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("positionViewPlot"));
    plot_->setMinimumHeight(120);
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    map_->setColorScale(scale_);
    map_->setGradient(QCPColorGradient::gpPolar); // diverging: the sign of a weight reads at a glance
    plot_->yAxis->setRangeReversed(true);
    plot_->addGraph();
    plot_->graph(0)->setPen(QPen(QColor(0, 114, 178), 2));
    auto* header = new QHBoxLayout;
    header->addWidget(new QLabel(tr("Show:"), this));
    header->addWidget(selector_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(about_);
    layout->addWidget(plot_, 1);
    connect(selector_, &QComboBox::currentIndexChanged, this, &PositionTechniqueView::showView);
    setViews({}, tr("Select a run whose weights were kept."));
}

void PositionTechniqueView::setViews(std::vector<PositionView> views, const QString& emptyReason)
{
    views_ = std::move(views);
    {
        const QSignalBlocker blocker(selector_);
        selector_->clear();
        for (const auto& v : views_)
            selector_->addItem(QString::fromStdString(v.name));
    }
    selector_->setEnabled(views_.size() > 1);
    plot_->setVisible(!views_.empty());
    if (views_.empty()) {
        about_->setText(emptyReason);
        return;
    }
    showView(0);
}

void PositionTechniqueView::showView(int index)
{
    if (index < 0 || index >= static_cast<int>(views_.size()))
        return;
    const PositionView& v = views_[static_cast<std::size_t>(index)];
    about_->setText(QString::fromStdString(v.about));
    const int rows = static_cast<int>(v.rows.size()), columns = static_cast<int>(v.columns.size());
    plot_->xAxis->setLabel(QString::fromStdString(v.columnLabel));
    plot_->yAxis->setLabel(QString::fromStdString(v.rowLabel));
    map_->setVisible(!v.curve);
    scale_->setVisible(!v.curve);
    plot_->graph(0)->setVisible(v.curve);
    if (v.curve) {
        plot_->graph(0)->data()->clear();
        for (int c = 0; c < columns; ++c)
            plot_->graph(0)->addData(c, v.values[static_cast<std::size_t>(c)]);
        plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        plot_->yAxis->setRangeReversed(false);
        plot_->graph(0)->rescaleAxes();
    } else {
        QCPColorMapData* data = map_->data();
        data->setSize(std::max(columns, 2), std::max(rows, 2));
        data->setRange(QCPRange(0, std::max(columns - 1, 1)), QCPRange(0, std::max(rows - 1, 1)));
        float extent = 0.0f;
        for (float x : v.values)
            extent = std::max(extent, std::abs(x));
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < columns; ++c)
                data->setCell(c, r, v.at(r, c));
        map_->setDataRange(QCPRange(-std::max(extent, 1e-6f), std::max(extent, 1e-6f))); // 0 is the middle colour
        plot_->xAxis->setTicker(ticks(v.columns));
        plot_->yAxis->setTicker(ticks(v.rows));
        plot_->yAxis->setRangeReversed(true);
        plot_->xAxis->setRange(-0.5, columns - 0.5);
        plot_->yAxis->setRange(-0.5, rows - 0.5);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attnlab::ui
