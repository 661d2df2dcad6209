#include "ui/plots/AttentionHeatmap.h"

#include "ui/plots/AttentionText.h"
#include "ui/plots/HeatmapViews.h"
#include "ui/plots/TokenText.h"

#include <QComboBox>
#include <QDialog>
#include <QGuiApplication>
#include <QPushButton>
#include <QScreen>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace attnlab::ui {
namespace {

// Every stride-th token as a tick label, and the one under the mouse (`hovered`), each elided to maxWidth pixels in
// `font` ("unbelievab…"), spaces and line ends visible (TokenText).
QSharedPointer<QCPAxisTickerText> tokenTicker(const std::vector<std::string>& tokens, const QFont& font, int maxWidth,
                                              int stride, int hovered)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const QFontMetrics metrics(font);
    stride = std::max(1, stride);
    for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
        // The hovered token replaces its neighbours' labels, which would overlap it.
        const bool near = hovered >= 0 && i != hovered && std::abs(i - hovered) < stride;
        if ((i % stride == 0 && !near) || i == hovered)
            ticker->addTick(static_cast<double>(i),
                            metrics.elidedText(TokenText::shown(tokens[static_cast<std::size_t>(i)]), Qt::ElideRight, maxWidth));
    }
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
    enlargeButton_ = new QPushButton(tr("Enlarge"), this);
    enlargeButton_->setObjectName(QStringLiteral("attentionEnlargeButton"));
    enlargeButton_->setToolTip(tr("This map in a window of its own, with every token's label (or double-click the map)"));
    enlargeButton_->setEnabled(false);
    connect(enlargeButton_, &QPushButton::clicked, this, [this] { enlarge(); });
    auto* header = new QHBoxLayout;
    header->addWidget(mapLabel_);
    header->addWidget(mapSelector_);
    header->addStretch(1);
    header->addWidget(enlargeButton_);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("attentionPlot"));
    plot_->setMinimumSize(320, 300);
    plot_->setMouseTracking(true); // the cell under the mouse, without a button held
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { enlarge(); });
    title_ = new QCPTextElement(plot_, tr("Attention"), QFont(font().family(), 11, QFont::Bold));
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);

    QCPAxis* keys = plot_->xAxis;
    QCPAxis* queries = plot_->yAxis;
    keys->setLabel(tr("key (attended token)"));
    queries->setLabel(tr("query"));
    queries->setRangeReversed(true); // first token at the top, as the sentence is read
    for (QCPAxis* axis : {keys, queries}) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
        axis->setTickLength(0, 3);
    }

    colorMap_ = new QCPColorMap(keys, queries);
    colorMap_->setObjectName(QStringLiteral("attentionColorMap"));
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
    text_ = new AttentionText(this);
    text_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(stack_, 1);
    layout->addWidget(text_);
    connect(plot_, &QCustomPlot::mouseMove, this, &AttentionHeatmap::mouseOverPlot);
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const auto [row, column] = cellAt(event->position());
        if (row >= 0)
            text_->chooseQuery(row);
        outlineRow(text_->shownQuery());
    });
    connect(text_, &AttentionText::queryHovered, this, [this](int) { outlineRow(text_->shownQuery()); });
    connect(text_, &AttentionText::queryChosen, this, [this](int row) { outlineRow(row); });

    connect(mapSelector_, &QComboBox::currentIndexChanged, this, &AttentionHeatmap::showMap);
    // The title is fitted to its cell once the cell's width is known: after each layout.
    connect(plot_, &QCustomPlot::afterLayout, this, &AttentionHeatmap::fitTitle);
    showPlaceholder(tr("Attention weights of the probe sentence appear here at each dev evaluation."));
}

void AttentionHeatmap::setMinimumPlotSize(const QSize& size) { plot_->setMinimumSize(size); }

void AttentionHeatmap::showPlaceholder(const QString& text)
{
    snapshot_.reset();
    views_.clear();
    enlargeButton_->setEnabled(false);
    {
        const QSignalBlocker blocker(mapSelector_);
        mapSelector_->clear();
    }
    mapLabel_->setVisible(false);
    mapSelector_->setVisible(false);
    colorMap_->data()->clear();
    for (QCPItemText* label : valueLabels_)
        plot_->removeItem(label);
    valueLabels_.clear();
    for (QCPAbstractItem* mark : goldMarks_)
        plot_->removeItem(mark);
    goldMarks_.clear();
    hovered_ = {-1, -1};
    outlinedRow_ = -1;
    drawHoverMarks();
    text_->clear();
    text_->hide();
    placeholder_->setText(text);
    stack_->setCurrentWidget(placeholder_);
}

void AttentionHeatmap::setSnapshot(const AttentionSnapshot& snapshot)
{
    if (snapshot.empty() || snapshot.tokens.empty()) {
        showPlaceholder(tr("This model has no attention."));
        return;
    }
    // Keep the view the user is looking at across evaluations.
    const QString previous = mapSelector_->currentText();
    snapshot_ = snapshot;
    enlargeButton_->setEnabled(true);
    views_ = HeatmapViews::of(snapshot);
    const bool translation = !snapshot.crossMaps.empty();
    {
        const QSignalBlocker blocker(mapSelector_);
        mapSelector_->clear();
        for (const auto& v : views_)
            mapSelector_->addItem(v.name);
        const int keep = mapSelector_->findText(previous);
        mapSelector_->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    const bool several = views_.size() > 1;
    mapLabel_->setText(snapshot.maps.empty() || translation ? tr("View") : tr("Layer / head"));
    mapLabel_->setVisible(several);
    mapSelector_->setVisible(several);
    stack_->setCurrentWidget(plot_);
    showMap(mapSelector_->currentIndex());
}

void AttentionHeatmap::showView(int index)
{
    if (index >= 0 && index < mapSelector_->count())
        mapSelector_->setCurrentIndex(index); // showMap follows through the selector's signal
}

int AttentionHeatmap::currentMapIndex() const
{
    return snapshot_ ? mapSelector_->currentIndex() : -1;
}

QString AttentionHeatmap::titleText() const
{
    return title_->text();
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
    if (!snapshot_ || index < 0 || index >= static_cast<int>(views_.size()))
        return;
    const HeatmapView& view = views_[static_cast<std::size_t>(index)];
    const int rows = static_cast<int>(view.rows.size()), columns = static_cast<int>(view.columns.size());
    if (hovered_.first >= rows || hovered_.second >= columns)
        hovered_ = {-1, -1};
    fitTokenLabels(view);
    plot_->xAxis->setLabel(view.xLabel);
    plot_->yAxis->setLabel(view.yLabel);
    QCPColorMapData* data = colorMap_->data();
    // QCPColorMapData needs two cells per dimension to know a cell's size: a single row (pooling weights)
    // is drawn as two identical half-height cells spanning [-0.5, 0.5].
    const int cellColumns = std::max(columns, 2), cellRows = std::max(rows, 2);
    const auto span = [](int n) { return n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.25, 0.25); };
    data->setSize(cellColumns, cellRows);
    data->setRange(span(columns), span(rows));
    float highest = 0.0f;
    for (int r = 0; r < cellRows; ++r) {
        for (int c = 0; c < cellColumns; ++c) {
            const float weight = view.values[static_cast<std::size_t>(std::min(r, rows - 1)) * columns + std::min(c, columns - 1)];
            data->setCell(c, r, weight);
            highest = std::max(highest, weight);
        }
    }
    // Scale to the largest weight: spread-out attention (~1/n each) would look blank on [0, 1].
    colorMap_->setDataRange(QCPRange(0.0, highest > 0.0f ? highest : 1.0));
    plot_->xAxis->setRange(-0.5, columns - 0.5);
    plot_->yAxis->setRange(-0.5, rows - 0.5);
    for (QCPItemText* label : valueLabels_)
        plot_->removeItem(label);
    valueLabels_.clear();
    // Numbers on a single row's cells, only where they fit: side by side when a cell is wide enough,
    // turned upright when it is not but the row is tall enough, none at all when cells are thinner than
    // a line of text (they would run into each other: "0.0910.0950.098").
    const QFontMetrics metrics(plot_->font());
    const int decimals = columns > 16 ? 2 : 3;
    const int textWidth = metrics.horizontalAdvance(QStringLiteral("0.") + QString(decimals, QLatin1Char('0'))) + 6;
    const int cellWidth = plotAreaWidth() / std::max(columns, 1);
    const bool sideways = textWidth > cellWidth;
    if (rows == 1 && cellWidth >= metrics.height() + 2) {
        for (int c = 0; c < columns; ++c) {
            const float weight = view.values[static_cast<std::size_t>(c)];
            auto* label = new QCPItemText(plot_);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setCoords(c, 0);
            label->setText(QString::number(weight, 'f', decimals));
            label->setRotation(sideways ? -90 : 0);
            label->setClipToAxisRect(true);
            // Light text on the dark end of the scale, dark text on the light end.
            const bool dark = highest > 0.0f && weight > 0.55f * highest;
            label->setColor(dark ? Qt::white : Qt::black);
            valueLabels_.push_back(label);
        }
    }
    for (QCPAbstractItem* mark : goldMarks_)
        plot_->removeItem(mark);
    goldMarks_.clear();
    for (const auto& [column, row] : view.marks) {
        if (column < 0 || row < 0 || column >= columns || row >= rows)
            continue;
        auto* mark = new QCPItemRect(plot_);
        mark->topLeft->setCoords(column - 0.42, row - 0.42);
        mark->bottomRight->setCoords(column + 0.42, row + 0.42);
        mark->setPen(QPen(QColor(230, 97, 1), 2)); // orange: the gold alignment, apart from the blue scale
        mark->setBrush(Qt::NoBrush);
        mark->setClipToAxisRect(true);
        goldMarks_.push_back(mark);
    }
    // A pretrained model's maps have no training step (step -1): the title is the view's alone.
    fullTitle_ = snapshot_->step >= 0 ? tr("step %1").arg(snapshot_->step) : QString();
    if (!view.title.isEmpty())
        fullTitle_ += (fullTitle_.isEmpty() ? QString() : QStringLiteral(" — ")) + view.title;
    if (!view.marks.empty())
        fullTitle_ += tr(" (gold alignment outlined)");
    if (!snapshot_->translation.empty() && snapshot_->step >= 0)
        fullTitle_ += tr(" · greedy now: “%1”").arg(QString::fromStdString(snapshot_->translation));
    if (!titleOverride_.isEmpty())
        fullTitle_ = titleOverride_;
    fillText();
    fitTitle();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit viewShown(index);
}

std::vector<float> AttentionHeatmap::shownValues() const
{
    const int i = currentMapIndex();
    return i >= 0 && i < static_cast<int>(views_.size()) ? views_[static_cast<std::size_t>(i)].values : std::vector<float>{};
}

std::vector<std::string> AttentionHeatmap::shownRows() const
{
    const int i = currentMapIndex();
    return i >= 0 && i < static_cast<int>(views_.size()) ? views_[static_cast<std::size_t>(i)].rows : std::vector<std::string>{};
}

std::vector<std::string> AttentionHeatmap::shownColumns() const
{
    const int i = currentMapIndex();
    return i >= 0 && i < static_cast<int>(views_.size()) ? views_[static_cast<std::size_t>(i)].columns : std::vector<std::string>{};
}

int AttentionHeatmap::plotAreaWidth() const
{
    // Before the first layout the axis rect has no size: estimate it from the widget's (less the axis
    // labels and the colour scale).
    const int rect = plot_->axisRect()->width();
    return rect > 50 ? rect : std::max(100, plot_->width() - 140);
}

QWidget* AttentionHeatmap::enlarge()
{
    if (!snapshot_)
        return nullptr;
    auto* dialog = new QDialog(window());
    dialog->setObjectName(QStringLiteral("attentionEnlarged"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Attention — %1").arg(fullTitle_));
    auto* layout = new QVBoxLayout(dialog);
    auto* large = new AttentionHeatmap(dialog);
    large->setObjectName(QStringLiteral("attentionHeatmapEnlarged"));
    large->enlargeButton_->hide();
    layout->addWidget(large);
    const QScreen* screen = QGuiApplication::screenAt(mapToGlobal(rect().center()));
    const QRect room = (screen ? screen : QGuiApplication::primaryScreen())->availableGeometry();
    dialog->resize(room.width() * 9 / 10, room.height() * 9 / 10);
    large->setSnapshot(*snapshot_);
    large->showView(currentMapIndex());
    dialog->show();
    large->setSnapshot(*snapshot_); // laid out at its size now: the labels fitted to the real cells
    large->showView(currentMapIndex());
    return dialog;
}

int AttentionHeatmap::plotAreaHeight() const
{
    const int rect = plot_->axisRect()->height();
    return rect > 50 ? rect : std::max(100, plot_->height() - 140);
}

// A label is legible when its line fits its cell: across a cell for the queries (rows), and along it for the
// keys, turned upright where the word is wider than the cell. The font shrinks from the window's down to
// 7 points to fit; below that every second (third, ...) label is drawn. Long words are elided to 9 average
// characters, so a 25-token sentence keeps the cells, not the labels, most of the room.
void AttentionHeatmap::fitTokenLabels(const HeatmapView& view)
{
    const int columns = std::max<int>(1, static_cast<int>(view.columns.size()));
    const int rows = std::max<int>(1, static_cast<int>(view.rows.size()));
    TokenLabels fitted;
    fitted.cellWidth = plotAreaWidth() / columns;
    fitted.cellHeight = plotAreaHeight() / rows;
    const auto fit = [&](int room, int* stride) {
        QFont f = plot_->font();
        const qreal largest = f.pointSizeF() > 0 ? f.pointSizeF() : 9.0;
        for (qreal size = largest; size >= 7.0; size -= 0.5) {
            f.setPointSizeF(size);
            if (QFontMetrics(f).height() <= room) {
                *stride = 1;
                return f;
            }
        }
        f.setPointSizeF(7.0);
        *stride = std::max(1, (QFontMetrics(f).height() + room - 1) / std::max(1, room));
        return f;
    };
    fitted.queryFont = fit(fitted.cellHeight, &fitted.queryStride);
    fitted.keyFont = fit(fitted.cellWidth, &fitted.keyStride);
    const QFontMetrics keyMetrics(fitted.keyFont);
    const int longest = 9 * keyMetrics.averageCharWidth();
    int widest = 0;
    for (const auto& token : view.columns)
        widest = std::max(widest, std::min(longest, keyMetrics.horizontalAdvance(TokenText::shown(token))));
    fitted.keyRotation = widest + 4 <= fitted.cellWidth ? 0.0 : 90.0;
    plot_->xAxis->setTickLabelFont(fitted.keyFont);
    plot_->yAxis->setTickLabelFont(fitted.queryFont);
    plot_->xAxis->setTickLabelRotation(fitted.keyRotation);
    plot_->xAxis->setTicker(tokenTicker(view.columns, fitted.keyFont, longest, fitted.keyStride, hovered_.second));
    plot_->yAxis->setTicker(tokenTicker(view.rows, fitted.queryFont, 9 * QFontMetrics(fitted.queryFont).averageCharWidth(),
                                        fitted.queryStride, hovered_.first));
    tokenLabels_ = fitted;
}

// The title on one line when it fits, else on two at its dash, each line elided to the plot's width:
// a title must never be cut at the widget's edge.
void AttentionHeatmap::fitTitle()
{
    const QFontMetrics metrics(title_->font());
    // The title sits above the map's column only (the colour scale's column is not its room): the
    // cell's width from the last layout, or an estimate before the first.
    const int cell = title_->outerRect().width();
    const int width = std::max(80, (cell > 50 ? cell : plot_->width() - 100) - 12);
    QString text = fullTitle_;
    if (metrics.horizontalAdvance(text) > width) {
        QStringList lines = text.split(QStringLiteral(" — "));
        for (QString& line : lines)
            line = metrics.elidedText(line, Qt::ElideRight, width);
        text = lines.join(QLatin1Char('\n'));
    }
    if (text == title_->text())
        return;
    title_->setText(text);
    // Laid out with the old text (one line where there are now two): lay out and draw once more.
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void AttentionHeatmap::setTextShown(bool shown)
{
    textShown_ = shown;
    fillText();
}

void AttentionHeatmap::fillText()
{
    const int index = currentMapIndex();
    // A window's time steps are not a text; DA-RNN's input attention is over series, not tokens.
    const bool tokens = textShown_ && snapshot_ && !snapshot_->series && index >= 0 && index < static_cast<int>(views_.size());
    text_->setVisible(tokens);
    if (!tokens) {
        outlinedRow_ = -1;
        drawHoverMarks();
        return;
    }
    const HeatmapView& view = views_[static_cast<std::size_t>(index)];
    if (view.rows.size() == 1 && view.yLabel.isEmpty()) // the pooling weights: one row, no query to choose
        text_->setRow(view.name, view.columns, view.values);
    else
        text_->setMatrix(view.rows, view.columns, view.values);
    outlinedRow_ = view.rows.size() == 1 ? -1 : text_->shownQuery();
    drawHoverMarks(); // the map may have changed under the same row
}

std::pair<int, int> AttentionHeatmap::cellAt(const QPointF& pixel) const
{
    const int index = currentMapIndex();
    if (index < 0 || index >= static_cast<int>(views_.size()) || !plot_->axisRect()->rect().contains(pixel.toPoint()))
        return {-1, -1};
    const HeatmapView& view = views_[static_cast<std::size_t>(index)];
    const int column = static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(pixel.x())));
    const int row = static_cast<int>(std::lround(plot_->yAxis->pixelToCoord(pixel.y())));
    if (row < 0 || column < 0 || row >= static_cast<int>(view.rows.size()) || column >= static_cast<int>(view.columns.size()))
        return {-1, -1};
    return {row, column};
}

QString AttentionHeatmap::cellText(int row, int column) const
{
    const int index = currentMapIndex();
    if (index < 0 || index >= static_cast<int>(views_.size()))
        return QString();
    const HeatmapView& view = views_[static_cast<std::size_t>(index)];
    if (row < 0 || column < 0 || row >= static_cast<int>(view.rows.size()) || column >= static_cast<int>(view.columns.size()))
        return QString();
    const QString weight = QLocale().toString(view.values[static_cast<std::size_t>(row) * view.columns.size() + column], 'f', 3);
    const QString key = TokenText::shown(view.columns[static_cast<std::size_t>(column)]);
    if (view.yLabel.isEmpty()) // one row of weights
        return tr("%1 %2 “%3”: %4").arg(view.xLabel).arg(column + 1).arg(key, weight);
    return tr("%1 %2 “%3” → %4 %5 “%6”: %7")
        .arg(view.yLabel)
        .arg(row + 1)
        .arg(TokenText::shown(view.rows[static_cast<std::size_t>(row)]), view.xLabel)
        .arg(column + 1)
        .arg(key, weight);
}

void AttentionHeatmap::mouseOverPlot(QMouseEvent* event)
{
    const auto [row, column] = cellAt(event->position());
    hoverCell(row, column);
    if (row >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), cellText(row, column), plot_);
    else
        QToolTip::hideText();
}

void AttentionHeatmap::hoverCell(int row, int column)
{
    if (std::pair(row, column) == hovered_)
        return;
    const bool relabel = hovered_.first != row || hovered_.second != column;
    hovered_ = {row, column};
    const int index = currentMapIndex();
    if (relabel && index >= 0 && index < static_cast<int>(views_.size()))
        fitTokenLabels(views_[static_cast<std::size_t>(index)]); // the hovered token's labels, whatever the stride
    drawHoverMarks();
}

void AttentionHeatmap::outlineRow(int row)
{
    if (row == outlinedRow_)
        return;
    outlinedRow_ = row;
    drawHoverMarks();
}

void AttentionHeatmap::drawHoverMarks()
{
    for (QCPAbstractItem* mark : hoverMarks_)
        plot_->removeItem(mark);
    hoverMarks_.clear();
    const int index = currentMapIndex();
    if (index >= 0 && index < static_cast<int>(views_.size())) {
        const HeatmapView& view = views_[static_cast<std::size_t>(index)];
        const double right = static_cast<double>(view.columns.size()) - 0.5, bottom = static_cast<double>(view.rows.size()) - 0.5;
        const auto outline = [&](double left, double top, double r, double b, const QPen& pen) {
            auto* mark = new QCPItemRect(plot_);
            mark->topLeft->setCoords(left, top);
            mark->bottomRight->setCoords(r, b);
            mark->setPen(pen);
            mark->setBrush(Qt::NoBrush);
            mark->setClipToAxisRect(true);
            hoverMarks_.push_back(mark);
        };
        const QColor highlight = palette().color(QPalette::Highlight);
        if (outlinedRow_ >= 0 && outlinedRow_ < static_cast<int>(view.rows.size()) && view.rows.size() > 1)
            outline(-0.5, outlinedRow_ - 0.5, right, outlinedRow_ + 0.5, QPen(highlight, 2));
        if (hovered_.first >= 0) {
            const QPen dashed(QColor(230, 97, 1), 1, Qt::DashLine);
            outline(-0.5, hovered_.first - 0.5, right, hovered_.first + 0.5, dashed);
            outline(hovered_.second - 0.5, -0.5, hovered_.second + 0.5, bottom, dashed);
        }
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void AttentionHeatmap::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Cell widths and the title's room change with the size: lay the labels out again.
    if (snapshot_)
        showMap(mapSelector_->currentIndex());
}

} // namespace attnlab::ui
