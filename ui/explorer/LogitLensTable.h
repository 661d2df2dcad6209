#pragma once
#include "core/analysis/TableDocument.h"
#include "core/results/LogitLens.h"

#include <QTableWidget>

namespace attnlab::ui {

// The logit lens as a table: a row per stage (the embedding, then each layer), a column per piece of the text, each
// cell the likeliest next piece read out at that stage and its probability, shaded by it; a cell's tooltip has the
// top guesses and the probability of the piece that really follows. Scrolled to the last layers, where the prediction
// has formed.
class LogitLensTable : public QTableWidget {
    Q_OBJECT
public:
    explicit LogitLensTable(QWidget* parent = nullptr);
    void setLens(const LogitLens& lens);
    // The table as the analyst exports it (TableExportDialog): the stages down, the pieces across.
    TableDocument document(const std::string& caption) const;

protected:
    // The last layers, where the answer forms, stay in view while the table's height settles (a lesson's text
    // above it, the window resized) unless the reader scrolled away from them.
    void resizeEvent(QResizeEvent* event) override;

private:
    LogitLens lens_;
};

} // namespace attnlab::ui
