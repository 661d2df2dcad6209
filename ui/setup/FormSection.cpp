#include "ui/setup/FormSection.h"

#include "ui/setup/FormWidgets.h"

#include <QFormLayout>

#include <algorithm>

namespace attnlab::ui {

FormSection::FormSection(const QString& title, QWidget* parent) : QGroupBox(title, parent), form_(new QFormLayout(this)) {}

void FormSection::add(FormSetting setting)
{
    if (setting.label.isEmpty())
        form_->addRow(setting.field);
    else
        form_->addRow(setting.label, setting.field);
    settings_.push_back(std::move(setting));
    shown_.push_back(true);
}

const FormSetting* FormSection::find(const std::string& key) const
{
    for (const FormSetting& s : settings_)
        if (std::find(s.keys.begin(), s.keys.end(), key) != s.keys.end())
            return &s;
    return nullptr;
}

void FormSection::write(TrainConfig& config, const ModelSpec* model) const
{
    for (const FormSetting& s : settings_)
        if (s.write)
            s.write(config, model);
}

void FormSection::read(const TrainConfig& config)
{
    reading_ = true;
    for (const FormSetting& s : settings_)
        if (s.read)
            s.read(config);
    reading_ = false;
}

void FormSection::showRows(const ModelSpec* model, TaskKind task, bool advanced)
{
    for (std::size_t i = 0; i < settings_.size(); ++i) {
        const FormSetting& s = settings_[i];
        const bool applies = (!s.option || form::hasOption(model, s.option)) && (!s.shown || s.shown(model, task));
        shown_[i] = applies && (advanced || !s.advanced);
        form_->setRowVisible(static_cast<int>(i), shown_[i]);
    }
}

bool FormSection::rowShown(const QWidget* field) const
{
    for (std::size_t i = 0; i < settings_.size(); ++i)
        if (settings_[i].field == field)
            return shown_[i];
    return false;
}

} // namespace attnlab::ui
