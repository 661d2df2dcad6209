#include "ui/explorer/SentenceDeletionPlot.h"

#include "ui/analysis/FigureExport.h"
#include "ui/explorer/MethodStyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace attnlab::ui {

SentenceDeletionPlot::SentenceDeletionPlot(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("sentenceDeletion"));
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("sentenceDeletionNote"));
    note_->setWordWrap(true);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("sentenceDeletionPlot"));
    plot_->setMinimumHeight(160);
    plot_->xAxis->setLabel(tr("tokens replaced by <unk>, most important first"));
    plot_->yAxis->setRange(0, 1);
    plot_->legend->setVisible(true);
    QFont legendFont = plot_->font();
    legendFont.setPointSizeF(std::max(6.0, legendFont.pointSizeF() - 1));
    plot_->legend->setFont(legendFont);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    auto* exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setObjectName(QStringLiteral("sentenceDeletionExport"));
    exportButton->setToolTip(tr("Save the curves as PNG, SVG or PDF, and their numbers as CSV"));
    connect(exportButton, &QPushButton::clicked, this, &SentenceDeletionPlot::exportCurves);
    auto* top = new QHBoxLayout;
    top->addWidget(note_, 1);
    top->addWidget(exportButton, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(plot_, 1);
    showPlaceholder(tr("Type a sentence: its deletion curve for each chosen method appears here."));
}

void SentenceDeletionPlot::showPlaceholder(const QString& text)
{
    curves_.clear();
    tokens_.clear();
    plot_->clearGraphs();
    note_->setText(text);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SentenceDeletionPlot::setCurves(const std::vector<SentenceDeletionCurve>& curves, const std::vector<std::string>& tokens,
                                     const QString& className)
{
    if (curves.empty()) {
        showPlaceholder(tr("None of the chosen methods applies to this model."));
        return;
    }
    curves_ = curves;
    tokens_ = tokens;
    plot_->clearGraphs();
    int longest = 0;
    for (const auto& c : curves_) {
        auto* graph = plot_->addGraph();
        QVector<double> x, y;
        for (std::size_t k = 0; k < c.probabilities.size(); ++k) {
            x << static_cast<double>(k);
            y << c.probabilities[k];
        }
        graph->setData(x, y, true);
        graph->setPen(MethodStyle::pen(c.method));
        graph->setName(tr("%1 (AOPC %2)").arg(QString::fromStdString(c.method)).arg(c.aopc, 0, 'f', 3));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        longest = std::max(longest, static_cast<int>(c.order.size()));
    }
    plot_->xAxis->setRange(0, std::max(1, longest));
    plot_->yAxis->setLabel(tr("p(%1)").arg(className));
    note_->setText(tr("<b>This sentence's deletion curves</b>: p(%1) as its tokens are replaced by &lt;unk&gt;, each "
                      "method's most important first. The faster a curve falls, the more the prediction rests on "
                      "the tokens that method ranked first (AOPC: its mean drop).").arg(className.toHtmlEscaped()));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SentenceDeletionPlot::exportCurves()
{
    if (curves_.empty()) {
        emit statusMessage(tr("Nothing to export: no sentence has been explained."));
        return;
    }
    const auto curves = curves_;
    const auto tokens = tokens_;
    const QString message = FigureExport::run(this, plot_, QStringLiteral("deletion-curve.png"), [curves, tokens] {
        // Long format: one row per method and step, with the token replaced at that step.
        QString text = QStringLiteral("method,replaced,token,probability\n");
        for (const auto& c : curves)
            for (std::size_t k = 0; k < c.probabilities.size(); ++k) {
                const QString token =
                    k == 0 ? QString() : QString::fromStdString(tokens[static_cast<std::size_t>(c.order[k - 1])]);
                text += QStringLiteral("%1,%2,\"%3\",%4\n")
                            .arg(QString::fromStdString(c.method))
                            .arg(k)
                            .arg(QString(token).replace(QLatin1Char('"'), QStringLiteral("\"\"")))
                            .arg(c.probabilities[k], 0, 'g', 9);
            }
        return text;
    });
    if (!message.isEmpty())
        emit statusMessage(message);
}

} // namespace attnlab::ui
