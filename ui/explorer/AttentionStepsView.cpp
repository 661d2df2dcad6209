#include "ui/explorer/AttentionStepsView.h"

#include "core/analysis/AttentionStepsTable.h"
#include "ui/LatestRequestRunner.h"
#include "ui/StdStrings.h"
#include "ui/analysis/TableDocumentModel.h"
#include "ui/analysis/TableExportDialog.h"
#include "ui/plots/TokenText.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab::ui {

AttentionStepsView::AttentionStepsView(QWidget* parent)
    : QWidget(parent), running_(new LatestRequestRunner(this)), layer_(new QSpinBox), head_(new QSpinBox), query_(new QComboBox),
      caption_(new QLabel), table_(new QTableView), model_(new TableDocumentModel(this)), vectors_(new QLabel), check_(new QLabel)
{
    setObjectName(QStringLiteral("attentionStepsView"));
    layer_->setObjectName(QStringLiteral("stepsLayer"));
    head_->setObjectName(QStringLiteral("stepsHead"));
    query_->setObjectName(QStringLiteral("stepsQuery"));
    layer_->setPrefix(tr("layer "));
    head_->setPrefix(tr("head "));
    query_->setToolTip(tr("The query token: the row of the attention map computed here"));
    query_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    caption_->setObjectName(QStringLiteral("stepsCaption"));
    caption_->setWordWrap(true);
    table_->setObjectName(QStringLiteral("stepsTable"));
    // Sorted by a click on a header (by weight: where the head looks), by j at first.
    auto* sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(model_);
    sorted->setSortRole(Qt::UserRole);
    table_->setModel(sorted);
    table_->setSortingEnabled(true);
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->verticalHeader()->hide();
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6); // compact rows: more keys in view
    table_->setMinimumHeight(72); // a few rows: the view fits under the writing explorer's bars at 1280 x 720
    vectors_->setObjectName(QStringLiteral("stepsVectors"));
    vectors_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    vectors_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // One line each, unwrapped: wrapped at the narrow width beside the writing explorer's bars, the lines pushed the
    // bars below the fold at 1280 x 720. The tooltip holds more values, the JSON export all of them.
    vectors_->setWordWrap(false);
    vectors_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    check_->setObjectName(QStringLiteral("stepsCheck"));
    check_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* exportButton = new QPushButton(tr("Export table…"));
    exportButton->setObjectName(QStringLiteral("stepsExport"));
    exportButton->setToolTip(tr("Save the steps as CSV, Markdown or LaTeX"));

    auto* choice = new QHBoxLayout;
    auto* queryLabel = new QLabel(tr("&Query"));
    queryLabel->setBuddy(query_);
    choice->addWidget(layer_);
    choice->addWidget(head_);
    choice->addWidget(queryLabel);
    choice->addWidget(query_, 1);
    choice->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(choice);
    layout->addWidget(caption_);
    layout->addWidget(table_, 1);
    layout->addWidget(vectors_);
    layout->addWidget(check_);

    connect(layer_, &QSpinBox::valueChanged, this, &AttentionStepsView::recompute);
    connect(head_, &QSpinBox::valueChanged, this, &AttentionStepsView::recompute);
    connect(query_, &QComboBox::activated, this, &AttentionStepsView::recompute);
    connect(exportButton, &QPushButton::clicked, this, &AttentionStepsView::exportTable);
    connect(running_, &LatestRequestRunner::failed, this, [this](const QString& message) {
        // A layer, head or query the model does not have (its message says which it has), or no self-attention.
        shown_.reset();
        model_->setDocument({});
        caption_->setText(message);
        vectors_->clear();
        check_->clear();
        emit updated();
    });
    clear(tr("Open a run with self-attention and type a text: one head's attention is computed here step by step."));
}

AttentionStepsView::~AttentionStepsView() = default; // the runner waits for its work: it holds compute_'s model

int AttentionStepsView::heightForWidth(int width) const
{
    // What the rows need at this width, not the table's preferred height: in a tab (whose height for a width is
    // its page's) beside the writing explorer's bars, the preferred height pushed everything below the fold.
    return layout() ? layout()->minimumHeightForWidth(width) : -1;
}

void AttentionStepsView::setSubject(Compute compute, int layers, int heads, int query)
{
    compute_ = std::move(compute);
    defaultQuery_ = query;
    for (QWidget* w : std::initializer_list<QWidget*>{layer_, head_, query_})
        w->setEnabled(true);
    {
        const QSignalBlocker quietLayer(layer_), quietHead(head_);
        layer_->setRange(1, std::max(1, layers));
        head_->setRange(1, std::max(1, heads));
    }
    if (query < 0) { // follow the text's end: the token just typed or drawn
        const QSignalBlocker quiet(query_);
        query_->setCurrentIndex(-1);
    }
    recompute();
}

void AttentionStepsView::clear(const QString& message)
{
    running_->discard();
    compute_ = nullptr;
    shown_.reset();
    model_->setDocument({});
    {
        const QSignalBlocker quiet(query_);
        query_->clear();
    }
    for (QWidget* w : std::initializer_list<QWidget*>{layer_, head_, query_})
        w->setEnabled(false);
    caption_->setText(message);
    vectors_->clear();
    check_->clear();
}

void AttentionStepsView::showHead(int layer, int head)
{
    const QSignalBlocker quietLayer(layer_), quietHead(head_);
    layer_->setValue(layer + 1);
    head_->setValue(head + 1);
    recompute();
}

void AttentionStepsView::recompute()
{
    if (!compute_)
        return;
    // The chosen query stays while the text keeps that many tokens; a new text starts from the subject's default.
    const int query = query_->currentIndex() >= 0 ? query_->currentIndex() : defaultQuery_;
    const int layer = layer_->value() - 1, head = head_->value() - 1;
    running_->request([this, compute = compute_, layer, head, query, fallback = defaultQuery_]() -> LatestRequestRunner::Delivery {
        AttentionStepByStep steps;
        try {
            steps = compute(layer, head, query);
        } catch (const std::invalid_argument& e) {
            if (std::string(e.what()).rfind("query", 0) != 0 || query == fallback)
                throw;
            steps = compute(layer, head, fallback); // the text got shorter than the chosen query
        }
        return [this, steps = std::move(steps)] { show(steps); };
    });
}

void AttentionStepsView::show(const AttentionStepByStep& steps)
{
    shown_ = steps;
    {
        const QSignalBlocker quiet(query_);
        QStringList items; // the queries: the keys' tokens, or a translation's rows for cross-attention
        const auto& queries = steps.queryTokens.empty() ? steps.tokens : steps.queryTokens;
        for (std::size_t j = 0; j < queries.size(); ++j)
            items << QStringLiteral("%1: %2").arg(j).arg(TokenText::shown(queries[j]));
        bool same = query_->count() == items.size();
        for (int i = 0; same && i < items.size(); ++i)
            same = query_->itemText(i) == items[i];
        if (!same) {
            query_->clear();
            query_->addItems(items);
        }
        query_->setCurrentIndex(steps.query);
    }
    const TableDocument table = AttentionStepsTable::of(steps);
    caption_->setText(qs(table.caption));
    model_->setDocument(table);
    vectors_->setText(qs(AttentionStepsTable::vectors(steps, 4)));
    vectors_->setToolTip(qs(AttentionStepsTable::vectors(steps, 16)));
    if (steps.modelWeights.empty())
        check_->setText(tr("The model's own weights were not recorded for this head."));
    else
        check_->setText(AttentionStepsTable::largestDifference(steps) == 0.0
                            ? tr("Weights recomputed from q, k and the mask: equal to the model's own.")
                            : tr("Weights recomputed from q, k and the mask: within %1 of the model's own.")
                                  .arg(AttentionStepsTable::largestDifference(steps), 0, 'g', 2));
    emit updated();
}

void AttentionStepsView::exportTable()
{
    if (!shown_)
        return;
    try {
        const QString path = TableExportDialog::save(this, AttentionStepsTable::of(*shown_),
                                                     QStringLiteral("attention-steps-layer%1-head%2-query%3.csv")
                                                         .arg(shown_->layer + 1)
                                                         .arg(shown_->head + 1)
                                                         .arg(shown_->query));
        if (!path.isEmpty())
            emit statusMessage(tr("Steps saved to %1").arg(path));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export table"), QString::fromStdString(e.what()));
    }
}

} // namespace attnlab::ui
