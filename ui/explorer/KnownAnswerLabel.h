#pragma once
#include "core/results/AttentionSnapshot.h"

#include <QLabel>

namespace attnlab::ui {

// On synthetic-lag, where the driver and lag the target follows are known: how much of the shown map's
// attention lands on them, next to uniform attention (KnownAnswerAttention). Hidden for any other data.
// Object name explorerKnownAnswer.
class KnownAnswerLabel : public QLabel {
    Q_OBJECT
public:
    explicit KnownAnswerLabel(QWidget* parent = nullptr);
    void showFor(const AttentionSnapshot& snapshot);
};

} // namespace attnlab::ui
