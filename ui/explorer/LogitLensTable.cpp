#include "ui/explorer/LogitLensTable.h"

#include "ui/StdStrings.h"
#include "ui/plots/TokenText.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>

namespace attnlab::ui {

LogitLensTable::LogitLensTable(QWidget* parent) : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void LogitLensTable::setLens(const LogitLens& lens)
{
    lens_ = lens;
    clear();
    const int stages = static_cast<int>(lens.stages.size()), positions = static_cast<int>(lens.tokens.size());
    setRowCount(stages);
    setColumnCount(positions);
    QStringList columns, rows;
    for (const auto& t : lens.tokens)
        columns << TokenText::shown(t);
    for (const auto& s : lens.stages)
        rows << qs(s);
    setHorizontalHeaderLabels(columns);
    setVerticalHeaderLabels(rows);
    const QColor base = palette().color(QPalette::Base), high = palette().color(QPalette::Highlight);
    for (int s = 0; s < stages; ++s)
        for (int p = 0; p < positions; ++p) {
            const auto& guesses = lens.top[static_cast<std::size_t>(s)][static_cast<std::size_t>(p)];
            const auto& g = guesses.front();
            auto* item = new QTableWidgetItem(
                QStringLiteral("%1 %2").arg(TokenText::shown(g.token), TokenText::percent(g.probability)));
            const double a = std::clamp(g.probability, 0.0, 1.0);
            item->setBackground(QColor::fromRgbF(base.redF() + (high.redF() - base.redF()) * a,
                                                 base.greenF() + (high.greenF() - base.greenF()) * a,
                                                 base.blueF() + (high.blueF() - base.blueF()) * a));
            if (a > 0.5)
                item->setForeground(palette().color(QPalette::HighlightedText));
            QStringList tip;
            for (const auto& other : guesses)
                tip << QStringLiteral("%1 %2").arg(TokenText::shown(other.token),
                                                   TokenText::percent(other.probability));
            const double following = lens.nextProbability[static_cast<std::size_t>(s)][static_cast<std::size_t>(p)];
            if (following >= 0.0)
                tip << tr("the piece that follows in the text: %1").arg(TokenText::percent(following));
            item->setToolTip(tip.join(QLatin1Char('\n')));
            setItem(s, p, item);
        }
    scrollToBottom();
}

void LogitLensTable::resizeEvent(QResizeEvent* event)
{
    const bool atBottom = verticalScrollBar()->value() == verticalScrollBar()->maximum();
    QTableWidget::resizeEvent(event);
    if (atBottom)
        QTimer::singleShot(0, this, &QTableWidget::scrollToBottom); // once the scroll range follows the new height
}

TableDocument LogitLensTable::document(const std::string& caption) const
{
    TableDocument table;
    table.caption = caption;
    table.header.push_back("stage");
    for (const auto& t : lens_.tokens)
        table.header.push_back(t);
    for (std::size_t s = 0; s < lens_.stages.size(); ++s) {
        std::vector<TableDocument::Cell> row {{lens_.stages[s]}};
        for (const auto& position : lens_.top[s])
            row.push_back(
                {position.front().token + " " + TokenText::percent(position.front().probability).toStdString()});
        table.rows.push_back(std::move(row));
    }
    return table;
}

} // namespace attnlab::ui
