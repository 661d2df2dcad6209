#pragma once
#include "ui/setup/FormSection.h"

namespace attnlab::ui {

// The designer's Encoder-decoder group, shown for a translation dataset: the attention of the chosen
// model (its rows by the registry's options: word vector size, attention score, alignment, local window) and how
// it trains and decodes (teacher forcing for the recurrent decoders, label smoothing, beam size, length penalty).
class TranslationSection : public FormSection {
    Q_OBJECT
public:
    explicit TranslationSection(QWidget* parent = nullptr);

signals:
    void alignmentChanged(); // a local alignment shows the window's row
};

} // namespace attnlab::ui
