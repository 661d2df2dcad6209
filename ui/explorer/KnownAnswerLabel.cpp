#include "ui/explorer/KnownAnswerLabel.h"

#include "core/analysis/KnownAnswerAttention.h"

#include <QStringList>

namespace attnlab::ui {

KnownAnswerLabel::KnownAnswerLabel(QWidget* parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("explorerKnownAnswer"));
    setWordWrap(true);
    setVisible(false);
}

void KnownAnswerLabel::showFor(const AttentionSnapshot& snapshot)
{
    const auto known = KnownAnswerAttention::of(snapshot);
    setVisible(known.has_value());
    if (!known) {
        clear();
        return;
    }
    QStringList parts;
    if (known->driverShare >= 0.0)
        parts << tr("input attention on %1: %2% (uniform %3%)")
                     .arg(QString::fromStdString(known->driver))
                     .arg(100.0 * known->driverShare, 0, 'f', 1)
                     .arg(100.0 * known->driverUniform, 0, 'f', 1);
    if (known->lagShare >= 0.0)
        parts << tr("temporal attention on t-%1: %2% (uniform %3%)")
                     .arg(known->lag)
                     .arg(100.0 * known->lagShare, 0, 'f', 1)
                     .arg(100.0 * known->lagUniform, 0, 'f', 1);
    setText(tr("<b>Known answer</b>: the target follows %1 at lag %2. %3")
                .arg(QString::fromStdString(known->driver).toHtmlEscaped())
                .arg(known->lag)
                .arg(parts.join(QStringLiteral("; "))));
}

} // namespace attnlab::ui
