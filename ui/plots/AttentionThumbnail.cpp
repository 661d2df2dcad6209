#include "ui/plots/AttentionThumbnail.h"

#include <QPainter>

#include <algorithm>

namespace attnlab::ui {
namespace {

// The heatmap's gradient (white, light blue at 0.35, dark blue at 1), so small and large read alike.
QRgb colourOf(float t)
{
    const auto mix = [](const QColor& a, const QColor& b, float f) {
        return qRgb(static_cast<int>(a.red() + (b.red() - a.red()) * f), static_cast<int>(a.green() + (b.green() - a.green()) * f),
                    static_cast<int>(a.blue() + (b.blue() - a.blue()) * f));
    };
    t = std::clamp(t, 0.0f, 1.0f);
    const QColor white(255, 255, 255), light(158, 202, 225), dark(8, 48, 107);
    return t < 0.35f ? mix(white, light, t / 0.35f) : mix(light, dark, (t - 0.35f) / 0.65f);
}

} // namespace

AttentionThumbnail::AttentionThumbnail(const QString& caption, int rows, int columns, const std::vector<float>& values,
                                       QWidget* parent)
    : QAbstractButton(parent), image_(std::max(columns, 1), std::max(rows, 1), QImage::Format_RGB32)
{
    setText(caption);
    setCheckable(true);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("%1 — click to show it large").arg(caption));
    float highest = 0.0f;
    for (float v : values)
        highest = std::max(highest, v);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) {
            const std::size_t i = static_cast<std::size_t>(r) * columns + c;
            image_.setPixel(c, r, colourOf(i < values.size() && highest > 0 ? values[i] / highest : 0.0f));
        }
}

QSize AttentionThumbnail::sizeHint() const
{
    return {side_ + 8, side_ + (captionShown() ? fontMetrics().height() + 10 : 8)};
}

void AttentionThumbnail::setSide(int pixels)
{
    side_ = pixels;
    updateGeometry();
}

void AttentionThumbnail::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const int caption = captionShown() ? fontMetrics().height() + 4 : 0;
    const QRect area = rect().adjusted(4, 4, -4, captionShown() ? -caption - 2 : -4);
    // Square cells where the map is square; a single row (pooling) as a strip across the width.
    QRect target = area;
    if (image_.height() > 1) {
        const int side = std::min(area.width(), area.height());
        target = QRect(area.left() + (area.width() - side) / 2, area.top(), side, side);
    } else {
        target.setHeight(std::min(area.height(), 24));
        target.moveTop(area.top() + (area.height() - target.height()) / 2);
    }
    painter.drawImage(target, image_); // nearest-neighbour: cells stay crisp
    painter.setPen(isChecked() ? palette().color(QPalette::Highlight) : palette().color(QPalette::Mid));
    painter.drawRect(target.adjusted(0, 0, -1, -1));
    if (isChecked() || hasFocus()) {
        QPen pen(palette().color(QPalette::Highlight));
        pen.setWidth(2);
        painter.setPen(pen);
        painter.drawRect(target.adjusted(-2, -2, 1, 1));
    }
    if (!captionShown())
        return;
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(0, height() - caption, width(), caption), Qt::AlignCenter,
                     fontMetrics().elidedText(text(), Qt::ElideRight, width()));
}

} // namespace attnlab::ui
