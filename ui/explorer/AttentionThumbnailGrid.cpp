#include "ui/explorer/AttentionThumbnailGrid.h"

#include "ui/explorer/AttentionThumbnail.h"

#include <QButtonGroup>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab::ui {

AttentionThumbnailGrid::AttentionThumbnailGrid(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("attentionThumbnailGrid"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    empty_ = new QLabel(this);
    empty_->setWordWrap(true);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setStyleSheet(QStringLiteral("color: palette(mid);"));
    grid_ = new QGridLayout;
    grid_->setSpacing(4);
    layout->addWidget(empty_);
    layout->addLayout(grid_);
    layout->addStretch(1);
}

int AttentionThumbnailGrid::thumbnailCount() const
{
    return static_cast<int>(findChildren<AttentionThumbnail*>().size());
}

void AttentionThumbnailGrid::clear(const QString& why)
{
    for (auto* t : findChildren<AttentionThumbnail*>())
        delete t;
    for (auto* l : findChildren<QLabel*>(QStringLiteral("gridHeader")))
        delete l;
    for (auto* g : findChildren<QButtonGroup*>())
        delete g;
    empty_->setText(why);
    empty_->setVisible(!why.isEmpty());
}

void AttentionThumbnailGrid::setSnapshot(const AttentionSnapshot& snapshot)
{
    clear(QString());
    auto* group = new QButtonGroup(this);
    group->setExclusive(true);
    auto add = [&](AttentionThumbnail* t, int row, int column, int view) {
        t->setObjectName(QStringLiteral("thumbnail%1").arg(view));
        grid_->addWidget(t, row, column);
        group->addButton(t);
        t->setChecked(view == selected_);
        connect(t, &QAbstractButton::clicked, this, [this, view] {
            selected_ = view;
            emit mapClicked(view);
        });
    };
    auto header = [&](const QString& text, int row, int column) {
        auto* label = new QLabel(text, this);
        label->setObjectName(QStringLiteral("gridHeader"));
        label->setAlignment(Qt::AlignCenter);
        grid_->addWidget(label, row, column);
    };
    // Row 0: "head 1 ... head H"; column 0: "layer 1 ... layer L"; the maps in between; one more column
    // for what spans all layers (rollout) or none (pooling, input attention), stacked downwards, so the
    // whole model fits a short pane.
    int layers = 0, heads = 0;
    for (const auto& m : snapshot.maps) {
        layers = std::max(layers, m.layer + 1);
        heads = std::max(heads, m.head + 1);
    }
    for (int h = 0; h < heads; ++h)
        header(tr("head %1").arg(h + 1), 0, h + 1);
    for (int l = 0; l < layers; ++l)
        header(tr("layer %1").arg(l + 1), l + 1, 0);
    const int overallColumn = heads + 1;
    int overallRow = 1;
    int view = 0;
    for (const auto& m : snapshot.maps) {
        const int n = std::min<int>(m.size, static_cast<int>(snapshot.tokens.size()));
        std::vector<float> values;
        for (int q = 0; q < n; ++q)
            for (int k = 0; k < n; ++k)
                values.push_back(m.at(q, k));
        if (m.layer < 0)
            add(new AttentionThumbnail(tr("rollout"), n, n, values, this), overallRow++, overallColumn, view++);
        else
            add(new AttentionThumbnail(tr("L%1 H%2").arg(m.layer + 1).arg(m.head + 1), n, n, values, this), m.layer + 1,
                m.head + 1, view++);
    }
    if (!snapshot.pooling.empty()) {
        const auto n = std::min(snapshot.pooling.size(), snapshot.tokens.size());
        add(new AttentionThumbnail(QString::fromStdString(snapshot.poolingName.empty() ? "pooling" : snapshot.poolingName), 1,
                                   static_cast<int>(n), std::vector<float>(snapshot.pooling.begin(), snapshot.pooling.begin() + n),
                                   this),
            overallRow++, overallColumn, view++);
    }
    if (!snapshot.inputAttention.empty())
        add(new AttentionThumbnail(tr("input attention"), static_cast<int>(snapshot.tokens.size()),
                                   static_cast<int>(snapshot.features.size()), snapshot.inputAttention, this),
            overallRow++, overallColumn, view++);
    if (overallRow > 1 && layers > 0)
        header(tr("overall"), 0, overallColumn);
    if (snapshot.empty())
        clear(tr("This model has no attention to show."));
}

void AttentionThumbnailGrid::setSelectedView(int view)
{
    selected_ = view;
    if (auto* t = findChild<AttentionThumbnail*>(QStringLiteral("thumbnail%1").arg(view)))
        t->setChecked(true);
}

} // namespace attnlab::ui
