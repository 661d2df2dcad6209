#include "ui/explorer/AttributionRowsPlot.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {
namespace {

constexpr int kRowHeight = 22; // pixels per method row: one line of token text with room around it

} // namespace

AttributionRowsPlot::AttributionRowsPlot(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("attributionRows"));
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("attributionRowsPlot"));
    plot_->setBackground(palette().base());
    plot_->xAxis->setVisible(false);
    plot_->yAxis->setRangeReversed(true); // the first method on top
    plot_->yAxis->setTicks(true);
    plot_->yAxis->setSubTicks(false);
    plot_->yAxis->setTickLength(0, 0);
    plot_->yAxis->grid()->setVisible(false);
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->setBasePen(Qt::NoPen);
    plot_->yAxis->setTickLabelColor(palette().text().color());
    plot_->axisRect()->setAutoMargins(QCP::msLeft);
    plot_->axisRect()->setMargins(QMargins(0, 4, 4, 4));
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(true);
    // Diverging: blue (against the class) - white (nothing) - orange (for it), ColorBrewer's PuOr ends.
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(0x21, 0x66, 0xac));
    gradient.setColorStopAt(0.5, QColor(0xf7, 0xf7, 0xf7));
    gradient.setColorStopAt(1.0, QColor(0xe6, 0x61, 0x01));
    map_->setGradient(gradient);
    map_->setDataRange(QCPRange(-1.0, 1.0));
    placeholder_ = new QCPItemText(plot_);
    placeholder_->position->setType(QCPItemPosition::ptAxisRectRatio);
    placeholder_->position->setCoords(0.5, 0.5);
    placeholder_->setColor(palette().placeholderText().color());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    showPlaceholder(tr("Type a sentence to see what each method credits."));
}

QString AttributionRowsPlot::placeholderText() const
{
    return placeholder_->visible() ? placeholder_->text() : QString();
}

void AttributionRowsPlot::showPlaceholder(const QString& text)
{
    methods_.clear();
    shades_.clear();
    tokens_.clear();
    for (QCPItemText* label : labels_)
        plot_->removeItem(label);
    labels_.clear();
    map_->data()->clear();
    map_->setVisible(false);
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    placeholder_->setText(text);
    placeholder_->setVisible(true);
    setMinimumHeight(2 * kRowHeight + 8);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void AttributionRowsPlot::setAttributions(const std::vector<TokenAttribution>& attributions)
{
    showPlaceholder(QString());
    std::size_t columns = 0;
    for (const auto& a : attributions) {
        if (!a.available())
            continue;
        double largest = 0;
        for (const double s : a.scores)
            largest = std::max(largest, std::abs(s));
        std::vector<double> row;
        for (const double s : a.scores)
            row.push_back(largest > 0 ? s / largest : 0.0);
        methods_.push_back(a.method);
        shades_.push_back(std::move(row));
        tokens_.push_back(a.tokens);
        columns = std::max(columns, a.scores.size());
    }
    if (methods_.empty()) {
        showPlaceholder(tr("None of the chosen methods applies to this model."));
        return;
    }
    placeholder_->setVisible(false);
    const int rows = static_cast<int>(methods_.size());
    map_->data()->setSize(static_cast<int>(columns), rows);
    map_->data()->setRange(QCPRange(0, std::max<double>(0, static_cast<double>(columns) - 1)), QCPRange(0, rows - 1));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int r = 0; r < rows; ++r) {
        ticker->addTick(r, QString::fromStdString(methods_[static_cast<std::size_t>(r)]));
        const auto& row = shades_[static_cast<std::size_t>(r)];
        for (std::size_t c = 0; c < columns; ++c)
            map_->data()->setCell(static_cast<int>(c), r, c < row.size() ? row[c] : 0.0);
    }
    plot_->yAxis->setTicker(ticker);
    map_->setVisible(true);
    plot_->xAxis->setRange(-0.5, static_cast<double>(columns) - 0.5);
    plot_->yAxis->setRange(-0.5, rows - 0.5);
    setMinimumHeight(rows * kRowHeight + 8);
    fitLabels();
}

void AttributionRowsPlot::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitLabels();
}

void AttributionRowsPlot::fitLabels()
{
    for (QCPItemText* label : labels_)
        plot_->removeItem(label);
    labels_.clear();
    if (methods_.empty()) {
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    plot_->replot(); // lays out the axis rect, whose width the cells share
    const double columns = plot_->xAxis->range().size();
    const int cell = static_cast<int>(plot_->axisRect()->width() / std::max(1.0, columns));
    QFont font = plot_->font();
    font.setPointSizeF(std::max(6.0, font.pointSizeF() - 1));
    const QFontMetrics metrics(font);
    for (std::size_t r = 0; r < methods_.size(); ++r)
        for (std::size_t c = 0; c < tokens_[r].size(); ++c) {
            auto* label = new QCPItemText(plot_);
            label->position->setCoords(static_cast<double>(c), static_cast<double>(r));
            label->setFont(font);
            // Dark shades take white text, as the heatmap's cells do.
            label->setColor(std::abs(shades_[r][c]) > 0.6 ? Qt::white : Qt::black);
            label->setText(metrics.elidedText(QString::fromStdString(tokens_[r][c]), Qt::ElideRight, std::max(8, cell - 4)));
            label->setClipToAxisRect(true);
            labels_.push_back(label);
        }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attnlab::ui
