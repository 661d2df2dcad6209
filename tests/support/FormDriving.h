#pragma once
// Driving the designer's form as a user does: a combo's item chosen by its id, and a small run set up row by
// row. Shared by the window's tests, so each one does not carry its own copy.
#include "tests/support/WidgetLookup.h"

#include <QComboBox>
#include <QSpinBox>
#include <QtTest/QTest>

// The item whose data is `id`; the test fails (naming the id) when the combo does not offer it.
inline void choose(QComboBox* combo, const char* id)
{
    const int index = combo->findData(QString::fromLatin1(id));
    QVERIFY2(index >= 0, id);
    combo->setCurrentIndex(index);
}

// A small run in the form (the setup panel, or the window around it): synthetic sentences, d_model 32, one
// layer, batches of 32, seed 5, on the CPU.
inline void fillSmallRun(QWidget* form, const char* model, const char* position, int steps, int evalEvery)
{
    choose(child<QComboBox>(form, "datasetCombo"), "synthetic-sentiment");
    choose(child<QComboBox>(form, "modelCombo"), model);
    choose(child<QComboBox>(form, "positionCombo"), position);
    child<QSpinBox>(form, "dModelSpin")->setValue(32);
    child<QSpinBox>(form, "layersSpin")->setValue(1);
    child<QSpinBox>(form, "stepsSpin")->setValue(steps);
    child<QSpinBox>(form, "evalEverySpin")->setValue(evalEvery);
    child<QSpinBox>(form, "batchSizeSpin")->setValue(32);
    child<QSpinBox>(form, "seedSpin")->setValue(5);
    choose(child<QComboBox>(form, "deviceCombo"), "cpu");
}
