#pragma once
#include "ui/setup/FormSetting.h"

#include <QGroupBox>

#include <vector>

class QFormLayout;

namespace attnlab::ui {

// A group of the designer's form built from FormSetting entries: it lays out their rows, writes and reads a
// configuration through them, and shows each row by its option, its condition and the advanced switch.
// SetupPanel holds one per group (model, encoder-decoder, training, compute) and walks them alike.
class FormSection : public QGroupBox {
    Q_OBJECT
public:
    FormSection(const QString& title, QWidget* parent);
    ~FormSection() override = default;

    void add(FormSetting setting); // a row at the end of the group; without a label the field spans it
    const std::vector<FormSetting>& settings() const { return settings_; }
    const FormSetting* find(const std::string& key) const; // the row that sets this configuration key

    void write(TrainConfig& config, const ModelSpec* model) const;
    virtual void read(const TrainConfig& config);
    // Each row shown when the model has its option, its condition holds and, if advanced, advanced is on.
    void showRows(const ModelSpec* model, TaskKind task, bool advanced);
    bool rowShown(const QWidget* field) const; // as showRows last decided (the form may be hidden itself)

protected:
    bool reading() const { return reading_; } // read() in progress: a field's own reactions hold back

private:
    QFormLayout* form_;
    std::vector<FormSetting> settings_;
    std::vector<bool> shown_;
    bool reading_ = false;
};

} // namespace attnlab::ui
