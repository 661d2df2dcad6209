#include "ui/explorer/SamplingBoxes.h"

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace attnlab::ui {

void SamplingBoxes::setUp(QDoubleSpinBox* temperature, QSpinBox* topK, QDoubleSpinBox* topP, QSpinBox* seed, const QString& prefix,
                          const QString& drawn)
{
    auto tr = [](const char* text) { return QCoreApplication::translate("SamplingBoxes", text); };
    temperature->setObjectName(prefix + QStringLiteral("Temperature"));
    temperature->setRange(0.05, 5.0);
    temperature->setSingleStep(0.1);
    temperature->setValue(1.0);
    temperature->setToolTip(tr("The logits are divided by it: below 1 the likeliest %1 gain, above 1 the distribution flattens").arg(drawn));
    topK->setObjectName(prefix + QStringLiteral("TopK"));
    topK->setRange(0, 100000);
    topK->setSpecialValueText(tr("all"));
    topK->setToolTip(tr("Draw only among the K likeliest %1 (all: no limit)").arg(drawn));
    topP->setObjectName(prefix + QStringLiteral("TopP"));
    topP->setRange(0.01, 1.0);
    topP->setSingleStep(0.05);
    topP->setValue(1.0);
    topP->setToolTip(tr("Draw only among the smallest set of likeliest %1 whose probability reaches P (nucleus sampling)").arg(drawn));
    seed->setObjectName(prefix + QStringLiteral("Seed"));
    seed->setRange(0, 1'000'000);
    seed->setValue(1);
    seed->setToolTip(tr("The same seed draws the same again"));
}

} // namespace attnlab::ui
