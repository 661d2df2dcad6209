#include "ui/explorer/DrawingControls.h"

#include "ui/explorer/SamplingBoxes.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace attnlab::ui {

DrawingControls::DrawingControls(QWidget* parent)
    : QWidget(parent), draw_(new QCheckBox(tr("&Draw the words"), this)), temperature_(new QDoubleSpinBox(this)),
      topK_(new QSpinBox(this)), topP_(new QDoubleSpinBox(this)), seed_(new QSpinBox(this)),
      again_(new QPushButton(tr("Draw a&gain"), this))
{
    draw_->setObjectName(QStringLiteral("alignmentDrawBox"));
    draw_->setToolTip(tr("Sample each word from the model's distribution instead of taking the likeliest (no beam): "
                         "a seed gives the same translation again"));
    SamplingBoxes::setUp(temperature_, topK_, topP_, seed_, QStringLiteral("alignment"), tr("words"));
    again_->setObjectName(QStringLiteral("alignmentDrawAgain"));
    again_->setToolTip(tr("The next seed: another draw of the same sentence"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(draw_);
    auto addLabelled = [&](const QString& text, QWidget* box) {
        auto* label = new QLabel(text, this);
        label->setBuddy(box);
        layout->addWidget(label);
        layout->addWidget(box);
    };
    addLabelled(tr("temperature"), temperature_);
    addLabelled(tr("top-k"), topK_);
    addLabelled(tr("top-p"), topP_);
    addLabelled(tr("seed"), seed_);
    layout->addWidget(again_);
    layout->addStretch(1);
    auto follow = [this](bool on) {
        for (QWidget* w : {static_cast<QWidget*>(temperature_), static_cast<QWidget*>(topK_), static_cast<QWidget*>(topP_),
                           static_cast<QWidget*>(seed_), static_cast<QWidget*>(again_)})
            w->setEnabled(on);
    };
    follow(false);
    connect(draw_, &QCheckBox::toggled, this, [this, follow](bool on) {
        follow(on);
        emit drawingChanged(on);
    });
    connect(again_, &QPushButton::clicked, this, [this] {
        seed_->setValue(seed_->value() + 1);
        emit drawAgain();
    });
}

std::optional<SamplingSettings> DrawingControls::sampling() const
{
    if (!draw_->isChecked())
        return std::nullopt;
    SamplingSettings s;
    s.temperature = temperature_->value();
    s.topK = topK_->value();
    s.topP = topP_->value();
    s.seed = static_cast<std::uint64_t>(seed_->value());
    return s;
}

void DrawingControls::setDrawing(bool on) { draw_->setChecked(on); }

void DrawingControls::setSeed(int seed) { seed_->setValue(seed); }

void DrawingControls::setTemperature(double temperature) { temperature_->setValue(temperature); }

} // namespace attnlab::ui
