#include "ui/analysis/RunDetailsView.h"

#include "core/results/ClassificationMetrics.h"
#include "core/results/DecimalText.h"
#include "core/results/RunResult.h"
#include "ui/analysis/TableDocumentModel.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>

#include <exception>

namespace attnlab::ui {
namespace {

QTableView* tableView(const char* name, TableDocumentModel* model)
{
    auto* view = new QTableView;
    view->setObjectName(QLatin1String(name));
    view->setModel(model);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->setWordWrap(false);
    return view;
}

QLabel* caption(const QString& text)
{
    auto* label = new QLabel(text);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

} // namespace

RunDetailsView::RunDetailsView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("runDetailsView"));
    headline_ = new QLabel;
    headline_->setObjectName(QStringLiteral("detailsHeadline"));
    headline_->setWordWrap(true);
    confusionModel_ = new TableDocumentModel(this);
    perClassModel_ = new TableDocumentModel(this);
    characteristicsModel_ = new TableDocumentModel(this);
    confusion_ = tableView("confusionTable", confusionModel_);
    perClass_ = tableView("perClassTable", perClassModel_);
    characteristics_ = tableView("characteristicsTable", characteristicsModel_);

    auto* layout = new QGridLayout(this);
    layout->addWidget(headline_, 0, 0, 1, 3);
    layout->addWidget(caption(tr("Test confusion (true ↓, predicted →)")), 1, 0);
    layout->addWidget(caption(tr("Per class")), 1, 1);
    layout->addWidget(caption(tr("Characteristics")), 1, 2);
    layout->addWidget(confusion_, 2, 0);
    layout->addWidget(perClass_, 2, 1);
    layout->addWidget(characteristics_, 2, 2);
    layout->setRowStretch(2, 1);
    clear(tr("Select a run in the run list to see its confusion matrix and per-class scores."));
}

void RunDetailsView::clear(const QString& why)
{
    headline_->setText(why);
    confusionModel_->setDocument({});
    perClassModel_->setDocument({});
    characteristicsModel_->setDocument({});
}

const TableDocument& RunDetailsView::confusionTable() const { return confusionModel_->document(); }
const TableDocument& RunDetailsView::perClassTable() const { return perClassModel_->document(); }

void RunDetailsView::setRun(const RunRecord& run, const std::vector<Characteristic>& characteristics)
{
    RunSummary summary;
    try {
        summary = run.summaryJson.empty() ? run.summary() : RunSummary::fromJson(run.summaryJson);
    } catch (const std::exception&) {
        summary = run.summary(); // a summary this build cannot read: the columns still hold
    }
    const RunResult result(summary);
    headline_->setText(tr("Run #%1 · %2 · %3")
                           .arg(run.id)
                           .arg(QString::fromStdString(run.name))
                           .arg(result.hasResults() ? QString::fromStdString(result.headline()) : tr("no results")));

    TableDocument confusion, perClass;
    if (summary.regression) {
        perClass.header = {"test metric", "value"};
        perClass.numeric = {false, true};
        perClass.rows = {{{"MAE", false}, {fixedDecimals(summary.testMae, 4), false}},
                         {{"RMSE", false}, {fixedDecimals(summary.testRmse, 4), false}},
                         {{"MAPE (%)", false}, {fixedDecimals(summary.testMape, 3), false}},
                         {{"best dev RMSE", false}, {fixedDecimals(summary.bestDevRmse, 4), false}}};
    } else if (!summary.testConfusion.empty()) {
        const ClassificationMetrics metrics(summary.testConfusion);
        confusion.header.push_back("true \\ predicted");
        for (int c = 0; c < metrics.classes(); ++c)
            confusion.header.push_back("class " + std::to_string(c));
        confusion.numeric.assign(confusion.header.size(), true);
        confusion.numeric[0] = false;
        for (int t = 0; t < metrics.classes(); ++t) {
            std::vector<TableDocument::Cell> row{{"class " + std::to_string(t), false}};
            for (int p = 0; p < metrics.classes(); ++p) // the diagonal (correct) in bold
                row.push_back({std::to_string(metrics.confusion()[t][p]), t == p});
            confusion.rows.push_back(row);
        }
        perClass.header = {"class", "precision", "recall", "F1", "support"};
        perClass.numeric = {false, true, true, true, true};
        for (int c = 0; c < metrics.classes(); ++c) {
            std::int64_t support = 0;
            for (auto n : metrics.confusion()[c])
                support += n;
            perClass.rows.push_back({{"class " + std::to_string(c), false},
                                     {fixedDecimals(metrics.precision(c), 3), false},
                                     {fixedDecimals(metrics.recall(c), 3), false},
                                     {fixedDecimals(metrics.f1(c), 3), false},
                                     {std::to_string(support), false}});
        }
        perClass.rows.push_back({{"macro", true}, {"", false}, {"", false}, {fixedDecimals(metrics.macroF1(), 3), true},
                                 {std::to_string(metrics.total()), false}});
        perClass.rows.push_back({{"accuracy", true}, {"", false}, {"", false}, {fixedDecimals(metrics.accuracy(), 3), true},
                                 {"", false}});
    }
    confusionModel_->setDocument(confusion);
    perClassModel_->setDocument(perClass);

    TableDocument table;
    table.header = {"characteristic", "value", "unit"};
    table.numeric = {false, true, false};
    table.rows.push_back({{"parameters", false}, {std::to_string(run.parameters), false}, {"", false}});
    table.rows.push_back({{"steps", false}, {std::to_string(run.steps), false}, {"", false}});
    table.rows.push_back({{"seconds", false}, {fixedDecimals(run.seconds, 1), false}, {"s", false}});
    for (const auto& c : characteristics)
        table.rows.push_back({{c.name, false}, {fixedDecimals(c.value, c.value == static_cast<long long>(c.value) ? 0 : 3), false},
                              {c.unit, false}});
    characteristicsModel_->setDocument(table);
}

} // namespace attnlab::ui
