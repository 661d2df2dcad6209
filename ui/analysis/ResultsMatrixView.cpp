#include "ui/analysis/ResultsMatrixView.h"

#include "core/analysis/ResultsMatrix.h"
#include "core/analysis/RunField.h"
#include "ui/analysis/TableDocumentModel.h"
#include "ui/analysis/TableExportDialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <exception>

namespace attnlab::ui {
namespace {

QComboBox* keyCombo(const char* name, const QStringList& keys)
{
    auto* combo = new QComboBox;
    combo->setObjectName(QLatin1String(name));
    combo->setEditable(true); // any config key, or several: "model,position"
    combo->addItems(keys);
    combo->setInsertPolicy(QComboBox::NoInsert);
    combo->setMinimumContentsLength(8);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    return combo;
}

} // namespace

ResultsMatrixView::ResultsMatrixView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("resultsMatrixView"));
    const QStringList keys = {QStringLiteral("model,position"), QStringLiteral("model"), QStringLiteral("dataset"),
                              QStringLiteral("position"), QStringLiteral("model,position,layers"),
                              QStringLiteral("optimizer"), QStringLiteral("d_model"), QStringLiteral("learning_rate"),
                              QStringLiteral("tags"), QStringLiteral("device")};
    rows_ = keyCombo("matrixRows", keys);
    columns_ = keyCombo("matrixColumns", keys);
    columns_->setCurrentText(QStringLiteral("dataset"));
    metric_ = new QComboBox;
    metric_->setObjectName(QStringLiteral("matrixMetric"));
    for (const auto& name : RunField::metricNames())
        metric_->addItem(QString::fromStdString(name));
    metric_->setToolTip(tr("test and dev are the task's headline: accuracy, or RMSE for a time-series run"));
    decimals_ = new QSpinBox;
    decimals_->setObjectName(QStringLiteral("matrixDecimals"));
    decimals_->setRange(0, 6);
    decimals_->setValue(1);
    decimals_->setPrefix(tr("decimals "));
    thesis_ = new QCheckBox(tr("Thesis numbers"));
    thesis_->setObjectName(QStringLiteral("matrixThesis"));
    thesis_->setToolTip(tr("Adds the thesis' published result under each row with the same configuration "
                           "(Tables 5.3, 5.6, 6.4), labelled as the thesis'"));
    average_ = new QCheckBox(tr("Macro-average"));
    average_->setObjectName(QStringLiteral("matrixAverage"));
    average_->setChecked(true);
    top_ = new QCheckBox(tr("Top"));
    top_->setObjectName(QStringLiteral("matrixTop"));
    top_->setToolTip(tr("Adds before each column its best single run, as the thesis' Table 5.6 prints \"Top\" "
                        "beside the average; the best of n runs grows with n, so read it with the n"));
    auto* exportButton = new QPushButton(tr("Export…"));
    exportButton->setObjectName(QStringLiteral("matrixExport"));
    exportButton->setToolTip(tr("Save as CSV, Markdown or LaTeX (booktabs)"));
    auto* copy = new QPushButton(tr("Copy"));
    copy->setObjectName(QStringLiteral("matrixCopy"));

    // Two rows, so the window still fits a 1280-pixel projector next to the setup panel.
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Rows")));
    controls->addWidget(rows_, 1);
    controls->addWidget(new QLabel(tr("Columns")));
    controls->addWidget(columns_, 1);
    controls->addWidget(new QLabel(tr("Metric")));
    controls->addWidget(metric_, 1);
    auto* options = new QHBoxLayout;
    options->addWidget(decimals_);
    options->addWidget(average_);
    options->addWidget(top_);
    options->addWidget(thesis_);
    options->addStretch(1);
    options->addWidget(copy);
    options->addWidget(exportButton);

    model_ = new TableDocumentModel(this);
    view_ = new QTableView;
    view_->setObjectName(QStringLiteral("resultsMatrixTable"));
    view_->setModel(model_);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->setSelectionBehavior(QAbstractItemView::SelectItems);
    view_->setWordWrap(false);
    summary_ = new QLabel;
    summary_->setObjectName(QStringLiteral("matrixSummary"));
    summary_->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(options);
    layout->addWidget(view_, 1);
    layout->addWidget(summary_);

    connect(rows_, &QComboBox::currentTextChanged, this, &ResultsMatrixView::rebuild);
    connect(columns_, &QComboBox::currentTextChanged, this, &ResultsMatrixView::rebuild);
    connect(metric_, &QComboBox::currentTextChanged, this, [this] {
        // Errors read best with more digits than percentages.
        const bool percent = RunField::isPercent(metric_->currentText().toStdString(), false);
        decimals_->setValue(percent ? 1 : 4);
        rebuild();
    });
    connect(decimals_, &QSpinBox::valueChanged, this, &ResultsMatrixView::rebuild);
    connect(thesis_, &QCheckBox::toggled, this, &ResultsMatrixView::rebuild);
    connect(average_, &QCheckBox::toggled, this, &ResultsMatrixView::rebuild);
    connect(top_, &QCheckBox::toggled, this, &ResultsMatrixView::rebuild);
    connect(exportButton, &QPushButton::clicked, this, &ResultsMatrixView::exportTable);
    connect(copy, &QPushButton::clicked, this, &ResultsMatrixView::copyTable);
    rebuild();
}

void ResultsMatrixView::setRuns(std::vector<RunRecord> runs)
{
    runs_ = std::move(runs);
    rebuild();
}

const TableDocument& ResultsMatrixView::table() const
{
    return model_->document();
}

void ResultsMatrixView::rebuild()
{
    QElapsedTimer timer;
    timer.start();
    ResultsMatrix::Options options;
    options.rows = rows_->currentText().toStdString();
    options.columns = columns_->currentText().toStdString();
    options.metric = metric_->currentText().toStdString();
    options.average = average_->isChecked();
    options.top = top_->isChecked();
    if (RunField::split(options.rows).empty() || RunField::split(options.columns).empty()) {
        summary_->setText(tr("Name a run field for rows and columns (model, dataset, position, optimizer, …)."));
        return;
    }
    try {
        const ResultsMatrix matrix = ResultsMatrix::build(runs_, options);
        model_->setDocument(matrix.table(decimals_->value(), thesis_->isChecked()));
        const QString unit = matrix.percent() ? tr("%") : QString();
        summary_->setText(
            matrix.runsUsed() == 0
                ? tr("No completed run has %1: train some, or pick another metric.").arg(metric_->currentText())
                : tr("%1%2, mean ± sample std (n) over all %3 completed runs%5; best of each column in bold%4.")
                      .arg(metric_->currentText(), unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unit))
                      .arg(matrix.runsUsed())
                      .arg(matrix.higherIsBetter() ? tr(" (higher is better)") : tr(" (lower is better)"))
                      .arg(options.top ? tr("; top: the best single run") : QString()));
    } catch (const std::exception& e) {
        summary_->setText(QString::fromStdString(e.what()));
    }
    lastBuildMs_ = static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

void ResultsMatrixView::exportTable()
{
    try {
        const QString path = TableExportDialog::save(this, table(), QStringLiteral("results-matrix.csv"));
        if (!path.isEmpty())
            emit statusMessage(tr("Table saved to %1").arg(path));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export table"), QString::fromStdString(e.what()));
    }
}

void ResultsMatrixView::copyTable()
{
    QApplication::clipboard()->setText(TableExportDialog::copyText(table()));
    emit statusMessage(tr("Table copied (tab-separated)"));
}

} // namespace attnlab::ui
