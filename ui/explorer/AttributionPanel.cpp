#include "ui/explorer/AttributionPanel.h"

#include "core/config/AttributionOptions.h"
#include "ui/StdStrings.h"
#include "ui/analysis/FigureExport.h"
#include "ui/explorer/AttributionRowsPlot.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab::ui {
namespace {

const QString kSettingsKey = QStringLiteral("explorer/methods");

} // namespace

AttributionPanel::AttributionPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("attributionPanel"));
    menu_ = new QMenu(this);
    // What the model attends to beside what the prediction rests on: attention, integrated gradients and
    // occlusion unless the user chose otherwise.
    QStringList chosen = QSettings().value(kSettingsKey, QStringList{QStringLiteral("attention"), QStringLiteral("ig"),
                                                                      QStringLiteral("occlusion")}).toStringList();
    for (const auto& method : AttributionOptions::methods()) {
        QAction* action = menu_->addAction(qs(method));
        action->setCheckable(true);
        action->setChecked(chosen.contains(qs(method)));
        action->setToolTip(qs(AttributionOptions::describe(method)));
        action->setObjectName(QStringLiteral("attributionMethod_%1").arg(qs(method)));
        connect(action, &QAction::toggled, this, [this] {
            QStringList names;
            for (const auto& m : methods())
                names << qs(m);
            QSettings().setValue(kSettingsKey, names);
            emit methodsChanged();
        });
    }
    menu_->setToolTipsVisible(true);
    methodsButton_ = new QToolButton(this);
    methodsButton_->setObjectName(QStringLiteral("attributionMethods"));
    methodsButton_->setText(tr("&Methods"));
    methodsButton_->setToolTip(tr("Which explanation methods shade the sentence, a row each"));
    methodsButton_->setMenu(menu_);
    methodsButton_->setPopupMode(QToolButton::InstantPopup);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("attributionNote"));
    note_->setMinimumWidth(1); // one line, elided to the panel's width (the whole text in its tooltip)
    auto* exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setObjectName(QStringLiteral("attributionExport"));
    exportButton->setToolTip(tr("Save the rows as PNG, SVG or PDF, and every score as CSV"));
    connect(exportButton, &QPushButton::clicked, this, &AttributionPanel::exportRows);
    rows_ = new AttributionRowsPlot(this);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("<b>Explanations</b>"), this));
    top->addWidget(methodsButton_);
    top->addStretch(1);
    top->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(note_);
    layout->addWidget(rows_, 1);
}

std::vector<std::string> AttributionPanel::methods() const
{
    std::vector<std::string> out;
    for (QAction* action : menu_->actions())
        if (action->isChecked())
            out.push_back(action->text().toStdString());
    return out;
}

void AttributionPanel::setMethods(const std::vector<std::string>& methods)
{
    const QSignalBlocker quiet(menu_);
    for (QAction* action : menu_->actions()) {
        const QSignalBlocker one(action);
        action->setChecked(std::find(methods.begin(), methods.end(), action->text().toStdString()) != methods.end());
    }
    QStringList names;
    for (const auto& m : this->methods())
        names << qs(m);
    QSettings().setValue(kSettingsKey, names);
    emit methodsChanged();
}

QString AttributionPanel::noteText() const { return noteText_; }

void AttributionPanel::fitNote()
{
    note_->setText(note_->fontMetrics().elidedText(noteText_, Qt::ElideRight, std::max(40, width() - 4)));
}

void AttributionPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitNote();
}

void AttributionPanel::showPlaceholder(const QString& text)
{
    attributions_.clear();
    noteText_.clear();
    note_->clear();
    rows_->showPlaceholder(text);
}

void AttributionPanel::setAttributions(const std::vector<TokenAttribution>& attributions,
                                       const std::vector<std::string>& classNames)
{
    attributions_ = attributions;
    QStringList notes;
    for (const auto& a : attributions) {
        if (!a.available()) {
            notes << tr("%1: %2").arg(qs(a.method), qs(a.note));
            continue;
        }
        if (a.method == "ig" && !std::isnan(a.completenessGap)) {
            // Completeness: the scores sum to p(x) - p(baseline) exactly only in the limit of infinite steps.
            const double change = a.probability - a.baselineProbability;
            notes << tr("IG completeness gap %1 (%2% of p(x) − p(baseline) = %3; %4 steps from the %5 baseline)")
                         .arg(a.completenessGap, 0, 'f', 4)
                         .arg(std::abs(change) > 1e-12 ? 100.0 * a.completenessGap / std::abs(change) : 0.0, 0, 'f', 1)
                         .arg(change, 0, 'f', 3)
                         .arg(a.steps)
                         .arg(qs(a.baseline));
        }
    }
    if (!attributions.empty())
        notes.prepend(tr("for \"%1\" (p = %2): orange for it, blue against, each row scaled to its largest |score|")
                          .arg(static_cast<std::size_t>(attributions.front().targetClass) < classNames.size()
                                   ? qs(classNames[static_cast<std::size_t>(attributions.front().targetClass)])
                                   : QString::number(attributions.front().targetClass))
                          .arg(attributions.front().probability, 0, 'f', 3));
    noteText_ = notes.join(QStringLiteral(" · "));
    note_->setToolTip(noteText_);
    fitNote();
    if (attributions.empty())
        rows_->showPlaceholder(tr("Choose at least one method (Methods)."));
    else
        rows_->setAttributions(attributions);
}

void AttributionPanel::exportRows()
{
    if (attributions_.empty()) {
        emit statusMessage(tr("Nothing to export: no sentence has been explained."));
        return;
    }
    const auto scores = attributions_;
    const QString message = FigureExport::run(this, rows_->plot(), QStringLiteral("explanations.png"), [scores] {
        QString text = QStringLiteral("method,target_class,position,token,score\n");
        for (const auto& a : scores)
            for (std::size_t i = 0; i < a.scores.size(); ++i)
                text += QStringLiteral("%1,%2,%3,\"%4\",%5\n")
                            .arg(qs(a.method))
                            .arg(a.targetClass)
                            .arg(i)
                            .arg(qs(a.tokens[i]).replace(QLatin1Char('"'), QStringLiteral("\"\"")))
                            .arg(a.scores[i], 0, 'g', 9);
        return text;
    });
    if (!message.isEmpty())
        emit statusMessage(message);
}

} // namespace attnlab::ui
