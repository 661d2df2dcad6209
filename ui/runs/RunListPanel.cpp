#include "ui/runs/RunListPanel.h"

#include "ui/StdStrings.h"
#include "ui/runs/RunFilterProxy.h"
#include "ui/runs/RunTableModel.h"
#include "ui/runs/SavedFilters.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab::ui {
namespace {

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

QTableWidgetItem* textItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

} // namespace

RunListPanel::RunListPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("runListPanel"));
    model_ = new RunTableModel(this);
    model_->setObjectName(QStringLiteral("runTableModel"));
    proxy_ = new RunFilterProxy(model_, this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("runTable"));
    table_->setModel(proxy_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Only the Tags and Notes cells are editable (the model's flags say so).
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    // Every row one line high and no per-row widgets: the view lays out 10,000 rows without asking each.
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // Columns are fitted to the rows on screen once, then left to the user: fitting them to every row on
    // every refresh (ResizeToContents) asks each cell of 10,000 rows for its size.
    QHeaderView* header = table_->horizontalHeader();
    header->setResizeContentsPrecision(0);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(RunTableModel::Notes, QHeaderView::Stretch);
    header->setStretchLastSection(false);
    table_->setSortingEnabled(true);
    table_->sortByColumn(RunTableModel::Id, Qt::DescendingOrder);
    table_->setContextMenuPolicy(Qt::ActionsContextMenu);

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
    filter_->setPlaceholderText(tr("Filter: words, or model:ssan test>45 tag=thesis -status:failed"));
    filter_->setToolTip(
        tr("<p>Every term must hold. A word is looked for anywhere in the row; <i>field</i><b>:</b>text looks in "
           "one field, <i>field</i><b>=</b>text matches it exactly; numbers compare with &lt; &lt;= &gt; &gt;= = "
           "!=; a leading <b>-</b> negates a term; \"double quotes\" keep spaces.</p><p>Fields: %1.</p>"
           "<p>Examples: <code>dataset=sst-fine model:ssan test&gt;=45</code>, "
           "<code>started&gt;=2026-11-01 -status:completed</code></p>")
            .arg(RunFilterQuery::fieldNames().join(QStringLiteral(", "))));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, this, &RunListPanel::onFilterEdited);

    savedMenu_ = new QMenu(tr("Saved &filters"), this);
    savedMenu_->setObjectName(QStringLiteral("savedFiltersMenu"));
    connect(savedMenu_, &QMenu::aboutToShow, this, &RunListPanel::fillSavedFiltersMenu);
    fillSavedFiltersMenu(); // so the window's menu and tests see the entries before it is first shown
    auto* savedButton = new QToolButton(this);
    savedButton->setObjectName(QStringLiteral("savedFiltersButton"));
    savedButton->setText(tr("Saved"));
    savedButton->setToolTip(tr("Save this filter under a name, or apply a saved one (its runs are selected)"));
    savedButton->setMenu(savedMenu_);
    savedButton->setPopupMode(QToolButton::InstantPopup);

    filterStatus_ = new QLabel(this);
    filterStatus_->setObjectName(QStringLiteral("filterStatus"));
    filterStatus_->setWordWrap(true);
    filterStatus_->hide();

    auto* runsPage = new QWidget(this);
    auto* runsLayout = new QVBoxLayout(runsPage);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(filter_, 1);
    filterRow->addWidget(savedButton);
    runsLayout->addLayout(filterRow);
    runsLayout->addWidget(filterStatus_);
    runsLayout->addWidget(table_, 1);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("runTabs"));
    tabs_->addTab(runsPage, tr("Runs"));
    tabs_->addTab(groups_, tr("Repeats (mean ± std)"));
    tabs_->setTabToolTip(1, tr("Runs of one configuration that differ only by seed, summarised the way the thesis "
                               "reports: mean and sample standard deviation over the completed runs"));

    auto* title = new QLabel(tr("<b>Runs</b> — select one to show its curves and attention; several to act on them"),
                             this);
    title->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(tabs_, 1);

    connect(model_, &RunTableModel::tagsEdited, this, &RunListPanel::tagsEdited);
    connect(model_, &RunTableModel::notesEdited, this, &RunListPanel::notesEdited);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunListPanel::onSelectionChanged);
}

void RunListPanel::setRuns(const std::vector<RunRecord>& runs)
{
    model_->setRuns(runs);
    showFilterStatus();
    if (table_->isVisible())
        fitColumns();
    // A run that went away (deleted elsewhere) leaves the selection; say so, quietly otherwise.
    onSelectionChanged();
}

void RunListPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    fitColumns();
}

void RunListPanel::fitColumns()
{
    // Once, on the rows on screen: a hidden view would measure every one of its rows.
    if (sized_ || model_->rowCount() == 0 || !table_->isVisible())
        return;
    sized_ = true;
    for (int c = 0; c < RunTableModel::ColumnCount; ++c)
        if (c != RunTableModel::Notes)
            table_->resizeColumnToContents(c);
}

void RunListPanel::onSelectionChanged()
{
    const QList<qint64> ids = selectedRunIds();
    if (ids == announced_)
        return;
    announced_ = ids;
    if (quiet_)
        return;
    emit selectionChanged(ids);
    if (ids.size() == 1)
        emit runSelected(ids.first());
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
    filter_->setText(text); // the proxy re-filters on textChanged
}

QString RunListPanel::filterText() const
{
    return filter_->text();
}

QString RunListPanel::filterError() const
{
    return proxy_->query().error();
}

void RunListPanel::onFilterEdited(const QString& text)
{
    proxy_->setFilterText(text);
    showFilterStatus();
}

void RunListPanel::showFilterStatus()
{
    const RunFilterQuery& query = proxy_->query();
    if (!query.isValid()) {
        // Said, not coloured only: every row stays listed, and the user learns which term to fix.
        filterStatus_->setText(tr("⚠ Not a filter: %1").arg(query.error().toHtmlEscaped()));
        filterStatus_->show();
    } else if (!query.isEmpty()) {
        filterStatus_->setText(tr("%Ln of %1 runs shown", nullptr, proxy_->rowCount()).arg(model_->rowCount()));
        filterStatus_->show();
    } else {
        filterStatus_->hide();
    }
}

void RunListPanel::selectAllShown()
{
    table_->selectAll();
}

void RunListPanel::focusFilter()
{
    tabs_->setCurrentIndex(0);
    filter_->setFocus(Qt::ShortcutFocusReason);
    filter_->selectAll();
}

void RunListPanel::saveFilter(const QString& name)
{
    SavedFilters().save(name, filter_->text().trimmed());
    fillSavedFiltersMenu();
}

bool RunListPanel::applySavedFilter(const QString& name)
{
    const SavedFilters saved;
    if (!saved.contains(name))
        return false;
    tabs_->setCurrentIndex(0);
    setFilterText(saved.query(name));
    selectAllShown();
    return true;
}

bool RunListPanel::deleteSavedFilter(const QString& name)
{
    const bool removed = SavedFilters().remove(name);
    fillSavedFiltersMenu();
    return removed;
}

void RunListPanel::askToSaveFilter()
{
    const QString query = filter_->text().trimmed();
    if (query.isEmpty() || !proxy_->query().isValid()) {
        QMessageBox::information(this, tr("Save filter"),
                                 query.isEmpty() ? tr("Type a filter first; it is saved as typed.")
                                                 : tr("This filter is not valid: %1").arg(proxy_->query().error()));
        return;
    }
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Save filter"), tr("Name for \"%1\":").arg(query),
                                               QLineEdit::Normal, {}, &ok)
                             .trimmed();
    if (!ok || name.isEmpty())
        return;
    if (SavedFilters().contains(name) &&
        QMessageBox::question(this, tr("Save filter"), tr("Replace the saved filter \"%1\"?").arg(name)) !=
            QMessageBox::Yes)
        return;
    saveFilter(name);
}

void RunListPanel::fillSavedFiltersMenu()
{
    savedMenu_->clear();
    QAction* save = savedMenu_->addAction(tr("&Save current filter as…"), this, &RunListPanel::askToSaveFilter);
    save->setObjectName(QStringLiteral("saveFilterAction"));
    const SavedFilters saved;
    const QStringList names = saved.names();
    if (names.isEmpty())
        return;
    savedMenu_->addSection(tr("Apply and select its runs"));
    for (const QString& name : names) {
        QAction* apply = savedMenu_->addAction(name, this, [this, name] { applySavedFilter(name); });
        apply->setObjectName(QStringLiteral("savedFilter:") + name);
        apply->setToolTip(saved.query(name));
    }
    QMenu* remove = savedMenu_->addMenu(tr("&Delete saved filter"));
    remove->setObjectName(QStringLiteral("deleteSavedFilterMenu"));
    for (const QString& name : names)
        remove->addAction(name, this, [this, name] { deleteSavedFilter(name); });
}

int RunListPanel::visibleRunCount() const
{
    return proxy_->rowCount();
}

bool RunListPanel::selectRun(qint64 runId, bool quietly)
{
    const int sourceRow = model_->rowOf(runId);
    if (sourceRow < 0)
        return false;
    const QModelIndex shown = proxy_->mapFromSource(model_->index(sourceRow, 0));
    if (!shown.isValid())
        return false; // filtered out
    if (!quietly && selectedRunIds() == QList<qint64>{runId}) {
        emit runSelected(runId); // selecting it again means "show it again"
        return true;
    }
    quiet_ = quietly;
    table_->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    quiet_ = false;
    table_->scrollTo(shown);
    return true;
}

qint64 RunListPanel::selectedRunId() const
{
    const QList<qint64> ids = selectedRunIds();
    return ids.size() == 1 ? ids.first() : 0;
}

QList<qint64> RunListPanel::selectedRunIds() const
{
    QModelIndexList rows = table_->selectionModel()->selectedRows(RunTableModel::Id);
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QList<qint64> ids;
    ids.reserve(rows.size());
    for (const QModelIndex& index : rows)
        ids << index.data(RunTableModel::RunIdRole).toLongLong();
    return ids;
}

QList<qint64> RunListPanel::runIds() const
{
    QList<qint64> ids;
    ids.reserve(proxy_->rowCount());
    for (int row = 0; row < proxy_->rowCount(); ++row)
        ids << proxy_->index(row, RunTableModel::Id).data(RunTableModel::RunIdRole).toLongLong();
    return ids;
}

int RunListPanel::runCount() const
{
    return model_->rowCount();
}

void RunListPanel::addRunActions(const QList<QAction*>& actions)
{
    table_->addActions(actions);
}

} // namespace attnlab::ui
