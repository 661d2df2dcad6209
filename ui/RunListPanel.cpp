#include "ui/RunListPanel.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab::ui {
namespace {

constexpr int kRunIdRole = Qt::UserRole + 1;

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Numbers go in as numbers, so sorting by a column orders them by value, not as text.
QTableWidgetItem* numberItem(double value, int decimals)
{
    auto* item = new QTableWidgetItem;
    const double scale = std::pow(10.0, decimals);
    item->setData(Qt::DisplayRole, std::round(value * scale) / scale);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem* textItem(const QString& text)
{
    return new QTableWidgetItem(text);
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
                                       tr("Status"), tr("Best dev %"), tr("Test %"), tr("Device"), tr("Steps"),
                                       tr("Seconds")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(Device, QHeaderView::Stretch);
    table_->setSortingEnabled(true);
    table_->sortByColumn(Id, Qt::DescendingOrder);

    auto* title = new QLabel(tr("<b>Runs</b> — select one to show its curves and attention"), this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(table_, 1);

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
        table_->setItem(row, BestDev, ended ? numberItem(100.0 * run.bestDevAccuracy, 1) : textItem({}));
        table_->setItem(row, Test, ended ? numberItem(100.0 * run.testAccuracy, 1) : textItem({}));
        table_->setItem(row, Device, textItem(qs(run.device)));
        table_->setItem(row, Steps, numberItem(run.steps, 0));
        table_->setItem(row, Seconds, ended ? numberItem(run.seconds, 1) : textItem({}));
        for (int column = 0; column < ColumnCount; ++column) {
            if (QTableWidgetItem* item = table_->item(row, column); item && item->toolTip().isEmpty())
                item->setToolTip(qs(run.configJson));
        }
    }
    table_->setSortingEnabled(true);
    if (selected != 0) {
        if (const int row = rowOf(selected); row >= 0)
            table_->selectRow(row);
    }
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
