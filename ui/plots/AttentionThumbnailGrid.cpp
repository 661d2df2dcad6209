#include "ui/plots/AttentionThumbnailGrid.h"

#include "core/results/AttentionAverage.h"
#include "ui/plots/AttentionThumbnail.h"

#include <QButtonGroup>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab::ui {

AttentionThumbnailGrid::AttentionThumbnailGrid(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("attentionThumbnailGrid"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    // A translation's three grids: one shown, the others one click away.
    groupBar_ = new QWidget(this);
    groupBar_->setObjectName(QStringLiteral("attentionGroupBar"));
    auto* bar = new QHBoxLayout(groupBar_);
    bar->setContentsMargins(0, 0, 0, 0);
    groupButtons_ = new QButtonGroup(groupBar_);
    groupButtons_->setExclusive(true);
    const auto groupButton = [&](const char* name, const QString& text, const QString& tip, Group group) {
        auto* b = new QToolButton(groupBar_);
        b->setObjectName(QLatin1String(name));
        b->setText(text);
        b->setToolTip(tip);
        b->setCheckable(true);
        b->setAutoRaise(true);
        groupButtons_->addButton(b, static_cast<int>(group));
        bar->addWidget(b);
        return b;
    };
    crossButton_ = groupButton("attentionGroupCross", tr("Cross-attention"),
                               tr("Each target word's attention over the source, layer by layer and head by head"), Group::Cross);
    encoderButton_ = groupButton("attentionGroupEncoder", tr("Encoder"), tr("The encoder's self-attention over the source"),
                                 Group::Encoder);
    decoderButton_ = groupButton("attentionGroupDecoder", tr("Decoder"),
                                 tr("The decoder's causal self-attention: each target word over the words before it"),
                                 Group::Decoder);
    bar->addStretch(1);
    connect(groupButtons_, &QButtonGroup::idClicked, this, [this](int id) { setGroup(static_cast<Group>(id)); });
    groupBar_->hide();

    empty_ = new QLabel(this);
    empty_->setWordWrap(true);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setStyleSheet(QStringLiteral("color: palette(mid);"));
    grid_ = new QGridLayout;
    grid_->setSpacing(4);
    layout->addWidget(groupBar_);
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
    snapshot_.reset();
    groupBar_->hide();
    removeThumbnails();
    empty_->setText(why);
    empty_->setVisible(!why.isEmpty());
}

void AttentionThumbnailGrid::removeThumbnails()
{
    for (auto* t : findChildren<AttentionThumbnail*>())
        delete t;
    for (auto* l : findChildren<QLabel*>(QStringLiteral("gridHeader")))
        delete l;
    for (auto* g : findChildren<QButtonGroup*>(QStringLiteral("thumbnailGroup")))
        delete g;
}

void AttentionThumbnailGrid::setSnapshot(const AttentionSnapshot& snapshot)
{
    clear(QString());
    if (snapshot.empty()) {
        clear(tr("This model has no attention to show."));
        return;
    }
    snapshot_ = snapshot;
    rebuild();
}

void AttentionThumbnailGrid::setGroup(Group group)
{
    group_ = group;
    if (snapshot_)
        rebuild();
}

int AttentionThumbnailGrid::crossStart() const { return snapshot_ && snapshot_->crossMaps.size() > 1 ? 1 : 0; }
int AttentionThumbnailGrid::encoderStart() const { return crossStart() + static_cast<int>(snapshot_->crossMaps.size()); }
int AttentionThumbnailGrid::decoderStart() const { return encoderStart() + static_cast<int>(snapshot_->maps.size()); }

AttentionThumbnailGrid::Group AttentionThumbnailGrid::groupOf(int view) const
{
    if (view < encoderStart())
        return Group::Cross;
    return view < decoderStart() ? Group::Encoder : Group::Decoder;
}

void AttentionThumbnailGrid::setSelectedView(int view)
{
    selected_ = view;
    if (isTranslation() && groupOf(view) != group_ && view < decoderStart() + static_cast<int>(snapshot_->decoderMaps.size()))
        setGroup(groupOf(view)); // rebuilt with the view outlined
    if (auto* t = findChild<AttentionThumbnail*>(QStringLiteral("thumbnail%1").arg(view)))
        t->setChecked(true);
}

void AttentionThumbnailGrid::rebuild()
{
    removeThumbnails();
    empty_->hide();
    if (isTranslation()) {
        const AttentionSnapshot& s = *snapshot_;
        encoderButton_->setEnabled(!s.maps.empty());
        decoderButton_->setEnabled(!s.decoderMaps.empty());
        if ((group_ == Group::Encoder && s.maps.empty()) || (group_ == Group::Decoder && s.decoderMaps.empty()))
            group_ = Group::Cross;
        groupButtons_->button(static_cast<int>(group_))->setChecked(true);
        groupBar_->show();
    } else {
        groupBar_->hide();
    }
    addThumbnails();
}

void AttentionThumbnailGrid::addThumbnails()
{
    const AttentionSnapshot& snapshot = *snapshot_;
    auto* group = new QButtonGroup(this);
    group->setObjectName(QStringLiteral("thumbnailGroup"));
    group->setExclusive(true);
    auto add = [&](AttentionThumbnail* t, int row, int column, int view) {
        t->setObjectName(QStringLiteral("thumbnail%1").arg(view));
        t->setSide(thumbnailSide_);
        grid_->addWidget(t, row, column);
        t->show(); // now, not at the layout's queued show: the grid's size hint and clicks count it at once
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
        label->show();
    };
    // Row 0: "head 1 ... head H"; column 0: "layer 1 ... layer L"; the maps in between; one more column
    // for what spans all layers (rollout, the heads' mean) or none (pooling, input attention), stacked
    // downwards, so the whole model fits a short pane.
    const auto headers = [&](const std::vector<AttentionMap>& maps) {
        int layers = 0, heads = 0;
        for (const auto& m : maps) {
            layers = std::max(layers, m.layer + 1);
            heads = std::max(heads, m.head + 1);
        }
        for (int h = 0; h < heads; ++h)
            header(tr("head %1").arg(h + 1), 0, h + 1);
        for (int l = 0; l < layers; ++l)
            header(tr("layer %1").arg(l + 1), l + 1, 0);
        return std::pair{layers, heads};
    };
    // A map as it was computed (rows x columns), each at its layer and head.
    const auto grid = [&](const std::vector<AttentionMap>& maps, int firstView) {
        int view = firstView;
        for (const auto& m : maps)
            add(new AttentionThumbnail(tr("L%1 H%2").arg(m.layer + 1).arg(m.head + 1), m.size, m.width(), m.weights, this),
                m.layer + 1, m.head + 1, view++);
    };

    if (isTranslation()) {
        switch (group_) {
        case Group::Cross: {
            const int heads = headers(snapshot.crossMaps).second;
            grid(snapshot.crossMaps, crossStart());
            if (crossStart() == 1) { // what AER and the translate table read: the last layer's heads averaged
                const AttentionMap mean = AttentionAverage::ofLastLayer(snapshot.crossMaps);
                add(new AttentionThumbnail(tr("mean L%1").arg(mean.layer + 1), mean.size, mean.width(), mean.weights, this),
                    mean.layer + 1, heads + 1, 0); // in its layer's row
                header(tr("alignment"), 0, heads + 1);
            }
            break;
        }
        case Group::Encoder:
            headers(snapshot.maps);
            grid(snapshot.maps, encoderStart());
            break;
        case Group::Decoder:
            headers(snapshot.decoderMaps);
            grid(snapshot.decoderMaps, decoderStart());
            break;
        }
        return;
    }

    const auto [layers, heads] = headers(snapshot.maps);
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
}

} // namespace attnlab::ui
