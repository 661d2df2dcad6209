#pragma once
#include "ui/setup/FormSection.h"

#include <QString>

#include <string>

class QCheckBox;
class QComboBox;

namespace attnlab::ui {

// The designer's Model group: the architecture (the models of the chosen dataset's task), its position
// technique (the model's own), and the model's settings, each row shown by the registry's options of the chosen
// model (d_model, layers, heads, RPR's k, activation, pooling, dropout, FFN, dense and filter sizes).
class ModelSection : public FormSection {
    Q_OBJECT
public:
    explicit ModelSection(QWidget* parent = nullptr);

    QComboBox* modelCombo() const { return model_; }
    QComboBox* positionCombo() const { return position_; }
    const ModelSpec* model() const; // the chosen model's registry entry (nullptr: none offered)
    // The models that serve the dataset's task (classification, regression, translation), then the chosen one's.
    void fillModels(TaskKind task);

signals:
    void modelChanged();
    void positionChanged();

private:
    void addModelRows();
    void addSizeRows();
    void addLanguageModelRows();
    // The chosen model's position techniques and pooling choices, which rows it enables, and the dropout
    // points it starts from (its defaults when the model changes, then the user's).
    void followModel();
    void fillPositions();

    QComboBox* model_;
    QComboBox* position_;
    QComboBox* pooling_; // the model's pooling choices; "" = its default
    QCheckBox* dropoutPoints_[3]; // input, hidden, output
    QString dropoutModel_;        // the model whose defaults the boxes show
    QWidget* heads_;
    QWidget* frozenEncoder_;
    QWidget* uniformAttention_;
    QWidget* activation_;
    QWidget* rprClip_;
    std::vector<QWidget*> ownSizes_; // d_model, layers, max length: a pretrained model's are its own
};

} // namespace attnlab::ui
