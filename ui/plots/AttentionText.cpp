#include "ui/plots/AttentionText.h"

#include "ui/plots/TokenText.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace attnlab::ui {
namespace {

constexpr int kPad = 3;     // inside a token's box, left and right
constexpr int kLineGap = 3; // between lines

// The heatmap's scale: white, light blue at 0.35, dark blue at 1.
QColor shadeColor(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    const auto mix = [](const QColor& a, const QColor& b, double u) {
        return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * u),
                                static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * u),
                                static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * u));
    };
    const QColor white(255, 255, 255), light(158, 202, 225), dark(8, 48, 107);
    return t < 0.35 ? mix(white, light, t / 0.35) : mix(light, dark, (t - 0.35) / 0.65);
}

} // namespace

AttentionText::AttentionText(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("attentionText"));
    setMouseTracking(true);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void AttentionText::setMatrix(std::vector<std::string> queries, std::vector<std::string> keys, std::vector<float> weights)
{
    const bool same = queries == queries_ && keys == keys_;
    queries_ = std::move(queries);
    keys_ = std::move(keys);
    weights_ = std::move(weights);
    weights_.resize(queries_.size() * keys_.size(), 0.0f);
    rowName_.clear();
    self_ = queries_ == keys_;
    // A new text starts on its last token (a causal model's last one sees them all); the same text keeps its choice.
    if (!same || chosen_ < 0 || chosen_ >= static_cast<int>(queries_.size()))
        chosen_ = queries_.empty() ? -1 : self_ ? static_cast<int>(queries_.size()) - 1 : 0;
    hovered_ = -1;
    updateGeometry();
    update();
}

void AttentionText::setRow(const QString& query, std::vector<std::string> keys, std::vector<float> weights)
{
    queries_.clear();
    keys_ = std::move(keys);
    weights_ = std::move(weights);
    weights_.resize(keys_.size(), 0.0f);
    rowName_ = query;
    self_ = false;
    chosen_ = 0;
    hovered_ = -1;
    updateGeometry();
    update();
}

void AttentionText::clear()
{
    queries_.clear();
    keys_.clear();
    weights_.clear();
    rowName_.clear();
    chosen_ = hovered_ = -1;
    updateGeometry();
    update();
}

void AttentionText::chooseQuery(int row)
{
    const int rows = rowName_.isEmpty() ? static_cast<int>(queries_.size()) : 1;
    if (row < 0 || row >= rows || row == chosen_)
        return;
    chosen_ = row;
    update();
}

int AttentionText::shownQuery() const { return hovered_ >= 0 ? hovered_ : chosen_; }

float AttentionText::weight(int query, int key) const
{
    const std::size_t at = static_cast<std::size_t>(query) * keys_.size() + static_cast<std::size_t>(key);
    return query >= 0 && key >= 0 && at < weights_.size() ? weights_[at] : 0.0f;
}

std::vector<double> AttentionText::shades() const
{
    std::vector<double> out(keys_.size(), 0.0);
    const int q = shownQuery();
    if (q < 0)
        return out;
    float highest = 0.0f;
    for (int k = 0; k < static_cast<int>(keys_.size()); ++k)
        highest = std::max(highest, weight(q, k));
    for (int k = 0; k < static_cast<int>(keys_.size()); ++k) {
        // A key after the query that gets nothing: the causal mask hid it (a bidirectional model gives it a little).
        const bool unseen = self_ && k > q && weight(q, k) == 0.0f;
        out[static_cast<std::size_t>(k)] = unseen ? -1.0 : highest > 0.0f ? weight(q, k) / highest : 0.0;
    }
    return out;
}

QString AttentionText::keyText(int index) const
{
    return index >= 0 && index < static_cast<int>(keys_.size()) ? TokenText::shown(keys_[static_cast<std::size_t>(index)])
                                                                : QString();
}

QString AttentionText::queryText(int index) const
{
    if (!rowName_.isEmpty())
        return index == 0 ? rowName_ : QString();
    return index >= 0 && index < static_cast<int>(queries_.size()) ? TokenText::shown(queries_[static_cast<std::size_t>(index)])
                                                                   : QString();
}

QString AttentionText::caption() const
{
    const int q = shownQuery();
    if (keys_.empty() || q < 0)
        return QString();
    float highest = 0.0f;
    for (int k = 0; k < static_cast<int>(keys_.size()); ++k)
        highest = std::max(highest, weight(q, k));
    const QString largest = QLocale().toString(highest, 'f', 3);
    if (!rowName_.isEmpty())
        return tr("Shaded by the weights of %1 (the darkest %2)").arg(rowName_, largest);
    return tr("Shaded by the weights of “%1” (token %2; the darkest %3) · hover or click another%4")
        .arg(queryText(q))
        .arg(q + 1)
        .arg(largest, self_ ? QString() : tr(" above"));
}

int AttentionText::gap() const
{
    // Characters and byte-level pieces carry their own spaces: written edge to edge they read as the text.
    const bool characters = std::all_of(keys_.begin(), keys_.end(), [](const std::string& t) { return t.size() <= 1; });
    const bool pieces = std::any_of(keys_.begin(), keys_.end(), [](const std::string& t) { return t.size() > 1 && t.front() == ' '; });
    const bool joined = characters || pieces;
    return joined ? 1 : QFontMetrics(tokenFont()).horizontalAdvance(QLatin1Char(' '));
}

AttentionText::Layout AttentionText::layoutFor(int width) const
{
    Layout out;
    const QFontMetrics metrics(tokenFont());
    const int lineHeight = metrics.height() + 4;
    const int space = gap();
    int y = captionHeight(width);
    y += y > 0 ? kLineGap : 0;
    const auto flow = [&](const std::vector<std::string>& tokens, std::vector<QRect>& boxes) {
        int x = 0;
        for (const auto& token : tokens) {
            const int w = metrics.horizontalAdvance(TokenText::shown(token)) + 2 * kPad;
            if (x > 0 && x + w > width) {
                x = 0;
                y += lineHeight + kLineGap;
            }
            boxes.emplace_back(x, y, w, lineHeight);
            x += w + space;
            if (token == "\n") { // the text's own line end: the next token starts a line
                x = 0;
                y += lineHeight + kLineGap;
            }
        }
        if (x > 0)
            y += lineHeight + kLineGap;
    };
    if (!self_ && rowName_.isEmpty()) {
        flow(queries_, out.queries);
        y += kLineGap;
    }
    out.keysTop = y;
    flow(keys_, out.keys);
    out.height = y;
    return out;
}

int AttentionText::heightForWidth(int width) const { return keys_.empty() ? 0 : layoutFor(std::max(60, width)).height; }

QSize AttentionText::sizeHint() const { return {400, heightForWidth(400)}; }

QSize AttentionText::minimumSizeHint() const { return {120, keys_.empty() ? 0 : QFontMetrics(tokenFont()).height() + 4}; }

QFont AttentionText::tokenFont() const
{
    // The text is what the room reads: a size above the window's.
    QFont f = font();
    f.setPointSizeF((f.pointSizeF() > 0 ? f.pointSizeF() : 9.0) * 1.25);
    return f;
}

int AttentionText::captionHeight(int width) const
{
    const QString text = caption();
    return text.isEmpty() ? 0 : QFontMetrics(font()).boundingRect(QRect(0, 0, width, 1000), Qt::TextWordWrap, text).height();
}

int AttentionText::queryAt(const QPoint& at) const
{
    const Layout l = layoutFor(width());
    const std::vector<QRect>& boxes = self_ ? l.keys : l.queries;
    for (std::size_t i = 0; i < boxes.size(); ++i)
        if (boxes[i].contains(at))
            return static_cast<int>(i);
    return -1;
}

int AttentionText::keyAt(const QPoint& at) const
{
    const Layout l = layoutFor(width());
    for (std::size_t i = 0; i < l.keys.size(); ++i)
        if (l.keys[i].contains(at))
            return static_cast<int>(i);
    return -1;
}

void AttentionText::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const Layout l = layoutFor(width());
    const QPalette& p = palette();
    const QString text = caption();
    if (!text.isEmpty()) {
        painter.setPen(p.color(QPalette::PlaceholderText));
        painter.drawText(QRect(0, 0, width(), captionHeight(width())), Qt::TextWordWrap, text);
    }
    painter.setFont(tokenFont());
    const int q = shownQuery();
    const QPen outline(p.color(QPalette::Highlight), 2);
    for (std::size_t i = 0; i < l.queries.size(); ++i) {
        painter.setPen(p.color(QPalette::Text));
        painter.drawText(l.queries[i], Qt::AlignCenter, queryText(static_cast<int>(i)));
        if (static_cast<int>(i) == q) {
            painter.setPen(outline);
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(l.queries[i].adjusted(1, 1, -1, -1));
        }
    }
    const std::vector<double> shade = shades();
    for (std::size_t i = 0; i < l.keys.size(); ++i) {
        const double s = shade[i];
        if (s >= 0.0)
            painter.fillRect(l.keys[i], shadeColor(s));
        // Light text on the dark end of the scale, as the heatmap's numbers; greyed where the query cannot see.
        painter.setPen(s < 0.0 ? p.color(QPalette::PlaceholderText) : s > 0.55 ? QColor(Qt::white) : QColor(Qt::black));
        painter.drawText(l.keys[i], Qt::AlignCenter, keyText(static_cast<int>(i)));
        if (self_ && static_cast<int>(i) == q) {
            painter.setPen(outline);
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(l.keys[i].adjusted(1, 1, -1, -1));
        }
    }
}

void AttentionText::mouseMoveEvent(QMouseEvent* event)
{
    const int at = rowName_.isEmpty() ? queryAt(event->position().toPoint()) : -1;
    if (at != hovered_) {
        hovered_ = at;
        update();
        emit queryHovered(at);
    }
    QWidget::mouseMoveEvent(event);
}

void AttentionText::mousePressEvent(QMouseEvent* event)
{
    const int at = rowName_.isEmpty() ? queryAt(event->position().toPoint()) : -1;
    if (at >= 0) {
        chosen_ = at;
        update();
        emit queryChosen(at);
    }
    QWidget::mousePressEvent(event);
}

void AttentionText::leaveEvent(QEvent* event)
{
    if (hovered_ >= 0) {
        hovered_ = -1;
        update();
        emit queryHovered(-1);
    }
    QWidget::leaveEvent(event);
}

bool AttentionText::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int k = keyAt(help->pos());
        const int q = shownQuery();
        if (k >= 0 && q >= 0) {
            const double s = shades()[static_cast<std::size_t>(k)];
            QToolTip::showText(help->globalPos(),
                               s < 0.0 ? tr("“%1” comes after “%2”: a causal model's query cannot see it")
                                             .arg(keyText(k), queryText(q))
                                       : tr("“%1” gets %2 of “%3”'s attention")
                                             .arg(keyText(k), QLocale().toString(weight(q, k), 'f', 3), queryText(q)),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace attnlab::ui
