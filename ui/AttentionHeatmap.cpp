#include "ui/AttentionHeatmap.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace attnlab::ui {
namespace {

QSharedPointer<QCPAxisTickerText> tokenTicker(const std::vector<std::string>& tokens)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < tokens.size(); ++i)
        ticker->addTick(static_cast<double>(i), QString::fromStdString(tokens[i]));
    return ticker;
}

} // namespace

AttentionHeatmap::AttentionHeatmap(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("attentionHeatmap"));

    mapLabel_ = new QLabel(tr("Layer / head"), this);
    mapSelector_ = new QComboBox(this);
    mapSelector_->setObjectName(QStringLiteral("attentionMapSelector"));
    mapSelector_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* header = new QHBoxLayout;
    header->addWidget(mapLabel_);
    header->addWidget(mapSelector_);
    header->addStretch(1);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("attentionPlot"));
    plot_->setMinimumSize(320, 300);
    title_ = new QCPTextElement(plot_, tr("Attention"), QFont(font().family(), 11, QFont::Bold));
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);

    QCPAxis* keys = plot_->xAxis;
    QCPAxis* queries = plot_->yAxis;
    keys->setLabel(tr("key (attended token)"));
    queries->setLabel(tr("query"));
    queries->setRangeReversed(true); // first token at the top, as the sentence is read
    keys->setTickLabelRotation(60);
    for (QCPAxis* axis : {keys, queries}) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
        axis->setTickLength(0, 3);
    }

    colorMap_ = new QCPColorMap(keys, queries);
    colorMap_->setInterpolate(false);
    colorMap_->setTightBoundary(false);
    colorScale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(1, 1, colorScale_);
    colorScale_->setType(QCPAxis::atRight);
    colorScale_->axis()->setLabel(tr("weight"));
    colorMap_->setColorScale(colorScale_);
    QCPColorGradient gradient;
    gradient.setColorStopAt(0.0, QColor(255, 255, 255));
    gradient.setColorStopAt(0.35, QColor(158, 202, 225));
    gradient.setColorStopAt(1.0, QColor(8, 48, 107));
    colorMap_->setGradient(gradient);
    // The scale's height follows the map's.
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    colorScale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);

    placeholder_ = new QLabel(this);
    placeholder_->setObjectName(QStringLiteral("attentionPlaceholder"));
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setMargin(24);
    placeholder_->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 13pt;"));

    stack_ = new QStackedWidget(this);
    stack_->addWidget(placeholder_);
    stack_->addWidget(plot_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(stack_, 1);

    connect(mapSelector_, &QComboBox::currentIndexChanged, this, &AttentionHeatmap::showMap);
    showPlaceholder(tr("Attention weights of the probe sentence appear here at each dev evaluation."));
}

void AttentionHeatmap::showPlaceholder(const QString& text)
{
    snapshot_.reset();
    {
        const QSignalBlocker blocker(mapSelector_);
        mapSelector_->clear();
    }
    mapLabel_->setVisible(false);
    mapSelector_->setVisible(false);
    colorMap_->data()->clear();
    placeholder_->setText(text);
    stack_->setCurrentWidget(placeholder_);
}

void AttentionHeatmap::setSnapshot(const AttentionSnapshot& snapshot)
{
    if (snapshot.maps.empty() || snapshot.tokens.empty()) {
        showPlaceholder(tr("This model has no attention."));
        return;
    }
    // Keep the layer/head the user is looking at across evaluations.
    const QString previous = mapSelector_->currentText();
    snapshot_ = snapshot;
    {
        const QSignalBlocker blocker(mapSelector_);
        mapSelector_->clear();
        for (const auto& map : snapshot.maps)
            mapSelector_->addItem(tr("layer %1 · head %2").arg(map.layer + 1).arg(map.head + 1));
        const int keep = mapSelector_->findText(previous);
        mapSelector_->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    const bool several = snapshot.maps.size() > 1;
    mapLabel_->setVisible(several);
    mapSelector_->setVisible(several);

    const auto ticker = tokenTicker(snapshot.tokens);
    plot_->xAxis->setTicker(ticker);
    plot_->yAxis->setTicker(ticker);
    stack_->setCurrentWidget(plot_);
    showMap(mapSelector_->currentIndex());
}

int AttentionHeatmap::currentMapIndex() const
{
    return snapshot_ ? mapSelector_->currentIndex() : -1;
}

QString AttentionHeatmap::placeholderText() const
{
    return placeholder_->text();
}

bool AttentionHeatmap::isPlaceholderShown() const
{
    return stack_->currentWidget() == placeholder_;
}

void AttentionHeatmap::showMap(int index)
{
    if (!snapshot_ || index < 0 || index >= static_cast<int>(snapshot_->maps.size()))
        return;
    const AttentionMap& map = snapshot_->maps[static_cast<std::size_t>(index)];
    // The map covers the tokens it was computed for (a model may cap the probe's length).
    const int n = std::min<int>(map.size, static_cast<int>(snapshot_->tokens.size()));
    QCPColorMapData* data = colorMap_->data();
    data->setSize(n, n);
    data->setRange(QCPRange(0, n - 1), QCPRange(0, n - 1));
    float highest = 0.0f;
    for (int query = 0; query < n; ++query) {
        for (int key = 0; key < n; ++key) {
            const float weight = map.at(query, key);
            data->setCell(key, query, weight);
            highest = std::max(highest, weight);
        }
    }
    // Scale to the largest weight: spread-out attention (~1/n each) would look blank on [0, 1].
    colorMap_->setDataRange(QCPRange(0.0, highest > 0.0f ? highest : 1.0));
    plot_->xAxis->setRange(-0.5, n - 0.5);
    plot_->yAxis->setRange(-0.5, n - 0.5);
    QString title = tr("step %1").arg(snapshot_->step);
    if (snapshot_->maps.size() > 1)
        title += tr(" — layer %1, head %2").arg(map.layer + 1).arg(map.head + 1);
    title_->setText(title);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attnlab::ui
