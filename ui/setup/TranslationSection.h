#pragma once
#include "ui/training/CoreMetaTypes.h"

#include <QGroupBox>
#include <QHash>
#include <QString>

#include <tuple>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace attnlab {
struct RegistryEntry;
}

namespace attnlab::ui {

// The designer's Encoder-decoder group (issue 37), shown for a translation dataset: the attention of the chosen
// model (its rows by the registry's options: word vector size, attention score, alignment, local window) and how
// it trains and decodes (teacher forcing for the recurrent decoders, label smoothing, beam size, length penalty).
// SetupPanel owns the rest of the form and asks this section for these keys, as it asks DataSection for the data's.
class TranslationSection : public QGroupBox {
    Q_OBJECT
public:
    explicit TranslationSection(QWidget* parent = nullptr);

    void apply(TrainConfig& config, const RegistryEntry* model) const; // keys the model does not have stay neutral
    void load(const TrainConfig& config);
    // Row field -> advanced; whether each row applies to the chosen model, on a translation dataset or not.
    const QHash<QWidget*, bool>& advancedRows() const { return advancedRows_; }
    void addApplicability(QHash<QWidget*, bool>& applies, const RegistryEntry* model, bool translation) const;
    // The configuration keys this section sets, with the label of the row that sets each (SetupPanel's inFieldTerms).
    std::vector<std::tuple<const char*, QString, QWidget*>> fields() const;

signals:
    void alignmentChanged(); // a local alignment shows the window's row

private:
    QSpinBox* embeddingDim_;
    QComboBox* attentionScore_; // "" = the model's default (Bahdanau: additive, Luong: general)
    QComboBox* alignment_;
    QSpinBox* localWindow_;
    QDoubleSpinBox* teacherForcing_;
    QDoubleSpinBox* labelSmoothing_;
    QSpinBox* beamSize_;
    QDoubleSpinBox* lengthPenalty_;
    QHash<QWidget*, bool> advancedRows_;
};

} // namespace attnlab::ui
