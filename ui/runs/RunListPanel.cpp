#include "ui/runs/RunListPanel.h"

#include "core/results/RunResult.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab::ui {
namespace {

constexpr int kRunIdRole = Qt::UserRole + 1;

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Numbers show with a fixed number of decimals ("19.00", not "19") and sort by value, not as text.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(double value, int decimals) : QTableWidgetItem(QString::number(value, 'f', decimals))
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setFlags(flags() & ~Qt::ItemIsEditable);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        const QVariant theirs = other.data(Qt::UserRole);
        return theirs.isValid() ? data(Qt::UserRole).toDouble() < theirs.toDouble() : QTableWidgetItem::operator<(other);
    }
};

QTableWidgetItem* numberItem(double value, int decimals)
{
    return new NumberItem(value, decimals);
}

QTableWidgetItem* textItem(const QString& text, bool editable = false)
{
    auto* item = new QTableWidgetItem(text);
    if (!editable)
        item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

QStringList tagList(const QString& text)
{
    QStringList tags;
    for (const QString& t : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!t.trimmed().isEmpty())
            tags << t.trimmed();
    return tags;
}

QString localTime(const std::string& iso)
{
    QDateTime time = QDateTime::fromString(qs(iso), Qt::ISODate);
    if (!time.isValid())
        return qs(iso);
    return time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

RunListPanel::RunListPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("runListPanel"));
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName(QStringLiteral("runTable"));
    table_->setHorizontalHeaderLabels({tr("Run"), tr("Started"), tr("Dataset"), tr("Model"), tr("Position"),
                                       tr("Status"), tr("Best dev"), tr("Test"), tr("Device"), tr("Steps"),
                                       tr("Seconds"), tr("Tags"), tr("Notes")});
    const QString metricTip = tr("Accuracy in % for sentiment runs; RMSE (de-normalised) for time-series runs");
    table_->horizontalHeaderItem(BestDev)->setToolTip(metricTip);
    table_->horizontalHeaderItem(Test)->setToolTip(metricTip + tr(", measured with the best-dev weights"));
    table_->horizontalHeaderItem(Tags)->setToolTip(tr("Double-click to edit: comma-separated tags"));
    table_->horizontalHeaderItem(Notes)->setToolTip(tr("Double-click to edit"));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    // Only the Tags and Notes cells are editable (their items carry the flag).
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(Device, QHeaderView::Interactive);
    table_->horizontalHeader()->setSectionResizeMode(Notes, QHeaderView::Stretch);
    table_->setSortingEnabled(true);
    table_->sortByColumn(Id, Qt::DescendingOrder);

    groups_ = new QTableWidget(0, GroupColumnCount, this);
    groups_->setObjectName(QStringLiteral("groupTable"));
    groups_->setHorizontalHeaderLabels({tr("Dataset"), tr("Model"), tr("Position"), tr("Completed / runs"),
                                        tr("Test mean"), tr("Test std"), tr("Best dev mean")});
    groups_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    groups_->setSelectionBehavior(QAbstractItemView::SelectRows);
    groups_->setAlternatingRowColors(true);
    groups_->verticalHeader()->setVisible(false);
    groups_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    groups_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    groups_->setSortingEnabled(true);

    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("runFilter"));
    filter_->setPlaceholderText(tr("Filter runs: words from the name, model, dataset, status, tags or notes"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, this, [this] { applyFilter(); });

    auto* runsPage = new QWidget(this);
    auto* runsLayout = new QVBoxLayout(runsPage);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    runsLayout->addWidget(filter_);
    runsLayout->addWidget(table_, 1);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("runTabs"));
    tabs_->addTab(runsPage, tr("Runs"));
    tabs_->addTab(groups_, tr("Repeats (mean ± std)"));
    tabs_->setTabToolTip(1, tr("Runs of one configuration that differ only by seed, summarised the way the thesis "
                               "reports: mean and sample standard deviation over the completed runs"));

    auto* title = new QLabel(tr("<b>Runs</b> — select one to show its curves and attention"), this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(tabs_, 1);

    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (filling_ || !item || (item->column() != Tags && item->column() != Notes))
            return;
        const QTableWidgetItem* id = table_->item(item->row(), Id);
        if (!id)
            return;
        const qint64 runId = id->data(kRunIdRole).toLongLong();
        if (item->column() == Tags)
            emit tagsEdited(runId, tagList(item->text()));
        else
            emit notesEdited(runId, item->text());
    });

    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const qint64 id = selectedRunId();
        if (id != 0)
            emit runSelected(id);
    });
}

void RunListPanel::setRuns(const std::vector<RunRecord>& runs)
{
    const qint64 selected = selectedRunId();
    const QSignalBlocker blocker(table_);
    filling_ = true;
    table_->setSortingEnabled(false); // rows must not move while they are filled
    table_->clearContents();
    table_->setRowCount(static_cast<int>(runs.size()));
    for (int row = 0; row < static_cast<int>(runs.size()); ++row) {
        const RunRecord& run = runs[static_cast<std::size_t>(row)];
        const bool ended = run.status != RunStatus::Running;
        auto* id = numberItem(static_cast<double>(run.id), 0);
        id->setData(kRunIdRole, static_cast<qlonglong>(run.id));
        table_->setItem(row, Id, id);
        table_->setItem(row, Started, textItem(localTime(run.startedAt)));
        table_->setItem(row, Dataset, textItem(qs(run.dataset)));
        table_->setItem(row, Model, textItem(qs(run.model)));
        table_->setItem(row, Position, textItem(qs(run.position)));
        auto* status = textItem(qs(toString(run.status)));
        if (!run.message.empty())
            status->setToolTip(qs(run.message));
        table_->setItem(row, Status, status);
        // The result as RunResult words it: accuracy in percent, or RMSE for a time series; a test figure
        // only for a completed run.
        const RunResult result(run.summary());
        table_->setItem(row, BestDev, result.hasResults() ? numberItem(result.devValue(), run.regression ? 4 : 1) : textItem({}));
        table_->setItem(row, Test, result.hasTest() ? numberItem(result.testValue(), run.regression ? 4 : 1) : textItem({}));
        if (result.hasTest())
            table_->item(row, Test)->setToolTip(qs(result.testDetail()));
        table_->setItem(row, Device, textItem(qs(run.device)));
        table_->setItem(row, Steps, numberItem(run.steps, 0));
        table_->setItem(row, Seconds, ended ? numberItem(run.seconds, 1) : textItem({}));
        QStringList tags;
        for (const auto& t : run.tags)
            tags << qs(t);
        table_->setItem(row, Tags, textItem(tags.join(QStringLiteral(", ")), true));
        table_->setItem(row, Notes, textItem(qs(run.notes), true));
        table_->item(row, Notes)->setToolTip(run.notes.empty() ? tr("Double-click to add notes") : qs(run.notes));
        for (int column = 0; column < ColumnCount; ++column) {
            if (QTableWidgetItem* item = table_->item(row, column); item && item->toolTip().isEmpty())
                item->setToolTip(qs(run.configJson));
        }
    }
    table_->setSortingEnabled(true);
    filling_ = false;
    applyFilter();
    if (selected != 0) {
        if (const int row = rowOf(selected); row >= 0)
            table_->selectRow(row);
    }
}

void RunListPanel::setAggregates(const std::vector<RunAggregate>& groups)
{
    groups_->setSortingEnabled(false);
    groups_->clearContents();
    groups_->setRowCount(static_cast<int>(groups.size()));
    for (int row = 0; row < static_cast<int>(groups.size()); ++row) {
        const RunAggregate& g = groups[static_cast<std::size_t>(row)];
        groups_->setItem(row, GroupDataset, textItem(qs(g.dataset)));
        groups_->setItem(row, GroupModel, textItem(qs(g.model)));
        groups_->setItem(row, GroupPosition, textItem(qs(g.position)));
        groups_->setItem(row, GroupRuns, textItem(QStringLiteral("%1 / %2").arg(g.completed).arg(g.runs)));
        const bool evaluated = g.completed > 0 && g.bestDevMean != 0.0; // bench runs have no results
        if (!evaluated) {
            for (int c : {GroupTestMean, GroupTestStd, GroupBestDev})
                groups_->setItem(row, c, textItem({}));
        } else if (g.regression) {
            groups_->setItem(row, GroupTestMean, numberItem(g.testRmseMean, 4));
            groups_->setItem(row, GroupTestStd, numberItem(g.testRmseStd, 4));
            groups_->setItem(row, GroupBestDev, numberItem(g.bestDevMean, 4));
            groups_->item(row, GroupTestMean)->setToolTip(tr("test RMSE, mean over %1 runs").arg(g.completed));
        } else {
            groups_->setItem(row, GroupTestMean, numberItem(100.0 * g.testAccuracyMean, 2));
            groups_->setItem(row, GroupTestStd, numberItem(100.0 * g.testAccuracyStd, 2));
            groups_->setItem(row, GroupBestDev, numberItem(100.0 * g.bestDevMean, 2));
            groups_->item(row, GroupTestMean)->setToolTip(tr("test accuracy %, mean over %1 runs").arg(g.completed));
        }
        for (int c = 0; c < GroupColumnCount; ++c)
            if (QTableWidgetItem* item = groups_->item(row, c); item && item->toolTip().isEmpty())
                item->setToolTip(qs(g.groupKey));
    }
    groups_->setSortingEnabled(true);
}

void RunListPanel::setFilterText(const QString& text)
{
    filter_->setText(text); // applyFilter runs on textChanged
}

void RunListPanel::applyFilter()
{
    const QStringList words = filter_->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (int row = 0; row < table_->rowCount(); ++row) {
        QString text;
        for (int c : {Id, Dataset, Model, Position, Status, Device, Tags, Notes})
            if (const QTableWidgetItem* item = table_->item(row, c))
                text += item->text() + QLatin1Char(' ');
        bool match = true;
        for (const QString& w : words)
            match = match && text.contains(w, Qt::CaseInsensitive);
        table_->setRowHidden(row, !match);
    }
}

int RunListPanel::visibleRunCount() const
{
    int n = 0;
    for (int row = 0; row < table_->rowCount(); ++row)
        n += table_->isRowHidden(row) ? 0 : 1;
    return n;
}

bool RunListPanel::selectRun(qint64 runId, bool quietly)
{
    const int row = rowOf(runId);
    if (row < 0)
        return false;
    if (!quietly && selectedRunId() == runId) {
        emit runSelected(runId); // selecting it again means "show it again"
        return true;
    }
    const QSignalBlocker blocker(quietly ? table_ : nullptr);
    if (quietly)
        table_->clearSelection();
    table_->selectRow(row);
    table_->scrollToItem(table_->item(row, Id));
    return true;
}

qint64 RunListPanel::selectedRunId() const
{
    const QList<QTableWidgetItem*> items = table_->selectedItems();
    if (items.isEmpty())
        return 0;
    const QTableWidgetItem* id = table_->item(items.first()->row(), Id);
    return id ? id->data(kRunIdRole).toLongLong() : 0;
}

QList<qint64> RunListPanel::runIds() const
{
    QList<qint64> ids;
    for (int row = 0; row < table_->rowCount(); ++row) {
        if (const QTableWidgetItem* id = table_->item(row, Id))
            ids << id->data(kRunIdRole).toLongLong();
    }
    return ids;
}

int RunListPanel::runCount() const
{
    return table_->rowCount();
}

int RunListPanel::rowOf(qint64 runId) const
{
    for (int row = 0; row < table_->rowCount(); ++row) {
        const QTableWidgetItem* id = table_->item(row, Id);
        if (id && id->data(kRunIdRole).toLongLong() == runId)
            return row;
    }
    return -1;
}

} // namespace attnlab::ui
