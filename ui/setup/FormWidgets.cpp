#include "ui/setup/FormWidgets.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSpinBox>
#include <QWidget>

#include <algorithm>

namespace attnlab::ui::form {

namespace {
void addItem(QComboBox* combo, const std::string& name, const std::string& id, const std::string& description)
{
    combo->addItem(QString::fromStdString(name), QString::fromStdString(id));
    combo->setItemData(combo->count() - 1, QString::fromStdString(description), Qt::ToolTipRole);
}
} // namespace

void addEntry(QComboBox* combo, const RegistryEntry& entry)
{
    addItem(combo, entry.name, entry.id, entry.description);
}

void addEntry(QComboBox* combo, const ModelSpec& model)
{
    addItem(combo, model.name, model.id, model.description);
}

void selectData(QComboBox* combo, const std::string& id)
{
    const int index = combo->findData(QString::fromStdString(id));
    if (index >= 0)
        combo->setCurrentIndex(index);
}

QComboBox* choices(QWidget* parent, const char* name, std::initializer_list<std::pair<QString, const char*>> items)
{
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QLatin1String(name));
    for (const auto& [text, id] : items)
        combo->addItem(text, QString::fromLatin1(id));
    return combo;
}

QSpinBox* spin(QWidget* parent, const char* name, int minimum, int maximum, int step)
{
    auto* box = new QSpinBox(parent);
    box->setObjectName(QLatin1String(name));
    box->setRange(minimum, maximum);
    box->setSingleStep(step);
    box->setAccelerated(true);
    return box;
}

QDoubleSpinBox* real(QWidget* parent, const char* name, double minimum, double maximum, int decimals, double step)
{
    auto* box = new QDoubleSpinBox(parent);
    box->setObjectName(QLatin1String(name));
    box->setRange(minimum, maximum);
    box->setDecimals(decimals);
    box->setSingleStep(step);
    return box;
}

QCheckBox* check(QWidget* parent, const char* name, const QString& text, const QString& tip)
{
    auto* box = new QCheckBox(text, parent);
    box->setObjectName(QLatin1String(name));
    box->setToolTip(tip);
    return box;
}

QWidget* row(QWidget* parent, std::initializer_list<QWidget*> widgets, bool stretch)
{
    auto* line = new QWidget(parent);
    auto* layout = new QHBoxLayout(line);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : widgets)
        layout->addWidget(w, w == *widgets.begin() && !stretch ? 1 : 0);
    if (stretch)
        layout->addStretch(1);
    return line;
}

const RegistryEntry* currentEntry(const QComboBox* combo, const std::vector<RegistryEntry>& list)
{
    return Registry::find(list, combo->currentData().toString().toStdString());
}

const ModelSpec* currentEntry(const QComboBox* combo, const std::vector<ModelSpec>& list)
{
    return Registry::find(list, combo->currentData().toString().toStdString());
}

std::string currentId(const QComboBox* combo)
{
    return combo->currentData().toString().toStdString();
}

bool hasOption(const ModelSpec* model, const char* option)
{
    return model && model->hasOption(option);
}

} // namespace attnlab::ui::form
