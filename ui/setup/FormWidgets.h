#pragma once
#include "core/config/Registry.h"

#include <QComboBox>
#include <QSignalBlocker>
#include <QString>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;
class QWidget;

namespace attnlab::ui::form {

// The designer's widget factories and combo helpers, shared by its sections (SetupPanel, DataSection):
// every field gets an object name (the tests and the settings reach it by that name).

// A registry entry as a combo item: its name shown, its id as the data, its description as the tooltip.
void addEntry(QComboBox* combo, const RegistryEntry& entry);
void addEntry(QComboBox* combo, const ModelSpec& model);
void selectData(QComboBox* combo, const std::string& id); // no change when the id is not offered
QComboBox* choices(QWidget* parent, const char* name, std::initializer_list<std::pair<QString, const char*>> items);
QSpinBox* spin(QWidget* parent, const char* name, int minimum, int maximum, int step = 1);
QDoubleSpinBox* real(QWidget* parent, const char* name, double minimum, double maximum, int decimals, double step);
QCheckBox* check(QWidget* parent, const char* name, const QString& text, const QString& tip);
// Widgets side by side in one form row, without margins of their own.
QWidget* row(QWidget* parent, std::initializer_list<QWidget*> widgets, bool stretch = false);
const RegistryEntry* currentEntry(const QComboBox* combo, const std::vector<RegistryEntry>& list);
const ModelSpec* currentEntry(const QComboBox* combo, const std::vector<ModelSpec>& list);
std::string currentId(const QComboBox* combo); // the chosen item's data
bool hasOption(const ModelSpec* model, const char* option);

// One row of a section's form: label (empty: the field spans the row), field, and whether it is advanced.
struct Row {
    QString label;
    QWidget* field;
    bool advanced = false;
};

// Refills a combo with fill(), keeping the chosen item where it is still offered; quietly, since the
// caller updates what depends on the choice itself.
template <class Fill>
void refill(QComboBox* combo, Fill fill)
{
    const QString previous = combo->currentData().toString();
    const QSignalBlocker blocker(combo);
    combo->clear();
    fill();
    const int keep = combo->findData(previous);
    combo->setCurrentIndex(keep >= 0 ? keep : 0);
}

} // namespace attnlab::ui::form
