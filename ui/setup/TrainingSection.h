#pragma once
#include "ui/setup/FormSection.h"

class QSpinBox;

namespace attnlab::ui {

// The designer's Training group: optimiser and learning rate (the optimiser's default when it changes),
// schedule, regularisation, the budget (steps or epochs, patience), batches, evaluation, seed, repeats and
// probe sentences. Momentum shows for SGD only, the decay rows for a step schedule, probes for sentences.
class TrainingSection : public FormSection {
    Q_OBJECT
public:
    explicit TrainingSection(QWidget* parent = nullptr);

    int repeats() const; // runs of one configuration: not a configuration key, so no setting of its own
    void setRepeats(int repeats);

signals:
    void rowsChanged(); // the optimiser or the schedule changed which rows apply

private:
    void addOptimizerRows();
    void addBudgetRows();

    QSpinBox* repeats_;
};

} // namespace attnlab::ui
