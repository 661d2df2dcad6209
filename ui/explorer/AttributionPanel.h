#pragma once
#include "core/results/TokenAttribution.h"

#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QMenu;
class QToolButton;

namespace attnlab::ui {

class AttributionRowsPlot;

// Under the Explorer's heatmap: the typed sentence's tokens shaded by each chosen explanation method, a row
// each (AttributionRowsPlot), the methods chosen from a menu (remembered in QSettings, "explorer/methods"),
// integrated gradients' completeness gap, the notes of methods that do not apply, and an export of the rows
// (PNG/SVG/PDF) with every score (CSV). Parts: attributionMethods (the menu's button), attributionNote,
// attributionExport.
class AttributionPanel : public QWidget {
    Q_OBJECT
public:
    explicit AttributionPanel(QWidget* parent = nullptr);

    std::vector<std::string> methods() const; // the chosen ones, in AttributionOptions::methods()' order
    void setMethods(const std::vector<std::string>& methods);
    void setAttributions(const std::vector<TokenAttribution>& attributions, const std::vector<std::string>& classNames);
    void showPlaceholder(const QString& text);
    const std::vector<TokenAttribution>& attributions() const { return attributions_; }
    QString noteText() const;
    AttributionRowsPlot* rows() const { return rows_; }

signals:
    void methodsChanged();
    void statusMessage(const QString& text);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void exportRows();
    void fitNote();

    QToolButton* methodsButton_;
    QMenu* menu_;
    QLabel* note_;
    QString noteText_; // note_ shows it elided
    AttributionRowsPlot* rows_;
    std::vector<TokenAttribution> attributions_;
};

} // namespace attnlab::ui
