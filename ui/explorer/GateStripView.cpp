#include "ui/explorer/GateStripView.h"

#include "ui/analysis/FigureExport.h"
#include "ui/plots/TokenText.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace attnlab::ui {

GateStripView::GateStripView(QWidget* parent) : QWidget(parent)
{
    strip_ = new QComboBox(this);
    strip_->setObjectName(QStringLiteral("gateStripCombo"));
    strip_->setToolTip(tr("Which layer and direction of the recurrent encoder"));
    unit_ = new QComboBox(this);
    unit_->setObjectName(QStringLiteral("gateUnitCombo"));
    unit_->setToolTip(tr("Each gate's mean over its units, or one unit's own value"));
    auto* exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setObjectName(QStringLiteral("gateExport"));
    exportButton->setToolTip(tr("Save the strip as PNG, SVG or PDF, and every unit's value as CSV"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Layer:"), this));
    controls->addWidget(strip_);
    controls->addWidget(new QLabel(tr("Units:"), this));
    controls->addWidget(unit_);
    controls->addStretch(1);
    controls->addWidget(exportButton);

    placeholder_ = new QLabel(this);
    placeholder_->setObjectName(QStringLiteral("gatePlaceholder"));
    placeholder_->setWordWrap(true);
    placeholder_->setAlignment(Qt::AlignCenter);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("gatePlot"));
    plot_->setMinimumSize(240, 160);
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    auto* scale = new QCPColorScale(plot_);
    scale->axis()->setLabel(tr("value (σ gates 0 to 1; candidate, cell -1 to 1)"));
    plot_->plotLayout()->addElement(0, 1, scale);
    map_->setColorScale(scale);
    QCPColorGradient diverging; // ColorBrewer RdBu: negative blue, zero white, positive red
    diverging.setColorStopAt(0.0, QColor(33, 102, 172));
    diverging.setColorStopAt(0.5, QColor(247, 247, 247));
    diverging.setColorStopAt(1.0, QColor(178, 24, 43));
    map_->setGradient(diverging);
    map_->setDataRange(QCPRange(-1.0, 1.0));
    plot_->yAxis->setRangeReversed(true); // the first gate at the top
    plot_->xAxis->setLabel(tr("token"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(placeholder_, 1);
    layout->addWidget(plot_, 1);
    connect(strip_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        const int units = strip_->currentIndex() >= 0 && strip_->currentIndex() < stripCount()
            ? gates_.strips[static_cast<std::size_t>(strip_->currentIndex())].units
            : 0;
        if (unit_->count() != units + 1) { // the same layer width keeps the chosen unit
            const QSignalBlocker block(unit_);
            unit_->clear();
            unit_->addItem(tr("mean of the units"), -1);
            for (int u = 0; u < units; ++u)
                unit_->addItem(tr("unit %1").arg(u + 1), u);
        }
        redraw();
    });
    connect(unit_, qOverload<int>(&QComboBox::currentIndexChanged), this, &GateStripView::redraw);
    connect(exportButton, &QPushButton::clicked, this, &GateStripView::exportStrip);
    clear(tr("Type a sentence to see the gates of a recurrent model on it."));
}

void GateStripView::setGates(const GateValues& gates, const std::vector<std::string>& tokens, const QString& exportName)
{
    if (gates.empty()) {
        clear(tr("This model has no gates: the LSTM and GRU models have them (input, forget and output gates and the "
                 "cell; a GRU's reset and update). A plain RNN, a CNN and the self-attention networks have none."));
        return;
    }
    gates_ = gates;
    tokens_ = tokens;
    exportName_ = exportName;
    const int previous = strip_->currentIndex();
    {
        const QSignalBlocker block(strip_);
        strip_->clear();
        for (const auto& s : gates_.strips)
            strip_->addItem(
                tr("%1, %2").arg(s.layer + 1).arg(s.direction == "backward" ? tr("backward") : tr("forward")));
        strip_->setCurrentIndex(previous >= 0 && previous < strip_->count() ? previous : 0);
    }
    emit strip_->currentIndexChanged(strip_->currentIndex());
}

void GateStripView::clear(const QString& why)
{
    gates_ = {};
    tokens_.clear();
    strip_->clear();
    unit_->clear();
    placeholder_->setText(why);
    placeholder_->setVisible(true);
    plot_->setVisible(false);
}

double GateStripView::shownValue(int gate, int token) const
{
    const int s = strip_->currentIndex();
    if (s < 0 || s >= stripCount())
        return 0.0;
    const auto& strip = gates_.strips[static_cast<std::size_t>(s)];
    const int unit = unit_->currentData().isValid() ? unit_->currentData().toInt() : -1;
    return unit < 0 ? strip.meanOverUnits(gate)[static_cast<std::size_t>(token)] : strip.at(gate, token, unit);
}

void GateStripView::redraw()
{
    const int s = strip_->currentIndex();
    if (s < 0 || s >= stripCount())
        return;
    const auto& strip = gates_.strips[static_cast<std::size_t>(s)];
    const int gates = static_cast<int>(strip.gates.size()), tokens = strip.tokens;
    placeholder_->setVisible(false);
    plot_->setVisible(true);
    plot_->clearItems();
    QCPColorMapData* data = map_->data();
    data->setSize(tokens, gates);
    data->setRange(QCPRange(0, std::max(tokens - 1, 1)), QCPRange(0, std::max(gates - 1, 1)));
    const bool written = tokens <= 24; // the values stay legible in the cells up to about this many tokens
    for (int g = 0; g < gates; ++g)
        for (int t = 0; t < tokens; ++t) {
            const double v = shownValue(g, t);
            data->setCell(t, g, v);
            if (written) {
                auto* label = new QCPItemText(plot_);
                label->position->setCoords(t, g);
                label->setText(QString::number(v, 'f', 2));
                label->setColor(std::abs(v) > 0.6 ? Qt::white : Qt::black);
            }
        }
    auto tokenTicks = QSharedPointer<QCPAxisTickerText>::create();
    const int every = tokens > 40 ? (tokens + 39) / 40 : 1; // a readable subset past 40 tokens
    for (int t = 0; t < tokens; t += every)
        tokenTicks->addTick(t,
                            t < static_cast<int>(tokens_.size())
                                ? TokenText::shown(tokens_[static_cast<std::size_t>(t)])
                                : QString::number(t));
    plot_->xAxis->setTicker(tokenTicks);
    plot_->xAxis->setTickLabelRotation(tokens > 8 ? 45 : 0);
    auto gateTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int g = 0; g < gates; ++g)
        gateTicks->addTick(g, QString::fromStdString(strip.gates[static_cast<std::size_t>(g)]));
    plot_->yAxis->setTicker(gateTicks);
    plot_->xAxis->setRange(-0.5, tokens - 0.5);
    plot_->yAxis->setRange(-0.5, gates - 0.5);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void GateStripView::exportStrip()
{
    if (gates_.empty()) {
        emit statusMessage(tr("Nothing to export: this model has no gates shown."));
        return;
    }
    const GateValues gates = gates_;
    const std::vector<std::string> tokens = tokens_;
    const QString message = FigureExport::run(this, plot_, exportName_, [gates, tokens] {
        QString csv = QStringLiteral("layer,direction,gate,token_index,token,unit,value\n");
        for (const auto& s : gates.strips)
            for (int g = 0; g < static_cast<int>(s.gates.size()); ++g)
                for (int t = 0; t < s.tokens; ++t)
                    for (int u = 0; u < s.units; ++u) {
                        QString token = t < static_cast<int>(tokens.size())
                            ? QString::fromStdString(tokens[static_cast<std::size_t>(t)])
                            : QString();
                        token.replace(QLatin1Char('"'), QStringLiteral("\"\""));
                        csv += QStringLiteral("%1,%2,%3,%4,\"%5\",%6,%7\n")
                                   .arg(s.layer + 1)
                                   .arg(QString::fromStdString(s.direction),
                                        QString::fromStdString(s.gates[static_cast<std::size_t>(g)]))
                                   .arg(t)
                                   .arg(token)
                                   .arg(u + 1)
                                   .arg(static_cast<double>(s.at(g, t, u)), 0, 'g', 7);
                    }
        return csv;
    });
    if (!message.isEmpty())
        emit statusMessage(message);
}

} // namespace attnlab::ui
