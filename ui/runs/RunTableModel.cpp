#include "ui/runs/RunTableModel.h"

#include "core/config/Registry.h"
#include "core/results/RunResult.h"
#include "ui/StdStrings.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace attnlab::ui {
namespace {

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
    const QDateTime time = QDateTime::fromString(qs(iso), Qt::ISODate);
    if (!time.isValid())
        return qs(iso);
    return time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

bool numeric(int column)
{
    using C = RunTableModel::Column;
    return column == C::Id || column == C::BestDev || column == C::Test || column == C::Steps || column == C::Seconds;
}

} // namespace

RunTableModel::RunTableModel(QObject* parent) : QAbstractTableModel(parent) {}

bool RunTableModel::Row::sameAs(const Row& o) const
{
    const RunSummary& a = summary;
    const RunSummary& b = o.summary;
    return id == o.id && name == o.name && dataset == o.dataset && model == o.model && position == o.position &&
           device == o.device && tags == o.tags && notes == o.notes && message == o.message &&
           startedAt == o.startedAt && configJson == o.configJson && a.status == b.status && a.steps == b.steps &&
           a.seconds == b.seconds && a.bestStep == b.bestStep && a.bestDevAccuracy == b.bestDevAccuracy &&
           a.testAccuracy == b.testAccuracy && a.regression == b.regression && a.bestDevRmse == b.bestDevRmse &&
           a.testRmse == b.testRmse && a.testMae == b.testMae && a.testMape == b.testMape &&
           a.testMacroF1 == b.testMacroF1;
}

RunTableModel::Row RunTableModel::rowFrom(const RunRecord& run)
{
    Row r;
    r.id = run.id;
    r.name = qs(run.name);
    r.dataset = qs(run.dataset);
    r.model = qs(run.model);
    r.position = qs(run.position);
    r.takesPosition = Registry::takesPosition(run.model);
    r.device = qs(run.device);
    QStringList tags;
    for (const auto& t : run.tags)
        tags << qs(t);
    r.tags = tags.join(QStringLiteral(", "));
    r.notes = qs(run.notes);
    r.message = qs(run.message);
    r.startedAt = run.startedAt;
    r.configJson = run.configJson;
    r.summary = run.summary();
    // The result as RunResult words it: accuracy in percent, or RMSE for a time series; a test figure only
    // for a completed run.
    const RunResult result(r.summary);
    r.hasDev = result.hasResults();
    r.hasTest = result.hasTest();
    r.dev = result.devValue();
    r.test = result.testValue();
    updateSearch(r);
    return r;
}

void RunTableModel::updateSearch(Row& r)
{
    const QChar space(QLatin1Char(' '));
    r.search = (QString::number(r.id) + space + r.name + space + r.dataset + space + r.model + space + r.position +
                space + qs(toString(r.summary.status)) + space + r.device + space + r.tags + space + r.notes)
                   .toLower();
}

void RunTableModel::reindex()
{
    rowOfId_.clear();
    rowOfId_.reserve(static_cast<qsizetype>(rows_.size()));
    for (int i = 0; i < static_cast<int>(rows_.size()); ++i)
        rowOfId_.insert(rows_[static_cast<std::size_t>(i)].id, i);
}

void RunTableModel::setRuns(const std::vector<RunRecord>& runs)
{
    if (rows_.empty() || runs.empty()) {
        beginResetModel();
        rows_.clear();
        rows_.reserve(runs.size());
        for (const auto& run : runs)
            rows_.push_back(rowFrom(run));
        reindex();
        endResetModel();
        return;
    }
    // Rows whose run is gone, in blocks from the end so the row numbers before them stay valid.
    std::unordered_set<qint64> listed;
    listed.reserve(runs.size());
    for (const auto& run : runs)
        listed.insert(run.id);
    for (int last = static_cast<int>(rows_.size()) - 1; last >= 0;) {
        if (listed.count(rows_[static_cast<std::size_t>(last)].id)) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !listed.count(rows_[static_cast<std::size_t>(first - 1)].id))
            --first;
        beginRemoveRows({}, first, last);
        rows_.erase(rows_.begin() + first, rows_.begin() + last + 1);
        endRemoveRows();
        last = first - 1;
    }
    reindex();
    // Changed rows are announced in contiguous blocks; new runs are appended (the proxy sorts them in).
    std::vector<Row> added;
    int changedFirst = -1, changedLast = -1;
    auto flush = [&] {
        if (changedFirst >= 0)
            emit dataChanged(index(changedFirst, 0), index(changedLast, ColumnCount - 1));
        changedFirst = changedLast = -1;
    };
    std::vector<int> changed;
    for (const auto& run : runs) {
        Row row = rowFrom(run);
        const auto at = rowOfId_.constFind(run.id);
        if (at == rowOfId_.constEnd()) {
            added.push_back(std::move(row));
        } else if (!rows_[static_cast<std::size_t>(*at)].sameAs(row)) {
            rows_[static_cast<std::size_t>(*at)] = std::move(row);
            changed.push_back(*at);
        }
    }
    std::sort(changed.begin(), changed.end());
    for (const int row : changed) {
        if (changedFirst >= 0 && row != changedLast + 1)
            flush();
        if (changedFirst < 0)
            changedFirst = row;
        changedLast = row;
    }
    flush();
    if (!added.empty()) {
        const int first = static_cast<int>(rows_.size());
        beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
        for (auto& row : added)
            rows_.push_back(std::move(row));
        reindex();
        endInsertRows();
    }
}

qint64 RunTableModel::runIdAt(int row) const
{
    return row >= 0 && row < static_cast<int>(rows_.size()) ? rows_[static_cast<std::size_t>(row)].id : 0;
}

int RunTableModel::rowOf(qint64 runId) const
{
    return rowOfId_.value(runId, -1);
}

bool RunTableModel::matches(int row, const RunFilterQuery& query) const
{
    using F = RunFilterQuery::Field;
    const Row& r = rows_[static_cast<std::size_t>(row)];
    for (const RunFilterQuery::Term& term : query.terms()) {
        bool holds = true;
        switch (term.field) {
        case F::Any: holds = r.search.contains(term.text) != term.negated; break;
        case F::Id: holds = RunFilterQuery::holdsForNumber(term, true, static_cast<double>(r.id)); break;
        case F::Dev: holds = RunFilterQuery::holdsForNumber(term, r.hasDev, r.dev); break;
        case F::Test: holds = RunFilterQuery::holdsForNumber(term, r.hasTest, r.test); break;
        case F::Steps: holds = RunFilterQuery::holdsForNumber(term, true, static_cast<double>(r.summary.steps)); break;
        case F::Seconds:
            holds = RunFilterQuery::holdsForNumber(term, r.summary.status != RunStatus::Running, r.summary.seconds);
            break;
        case F::Name: holds = RunFilterQuery::holdsForText(term, r.name.toLower()); break;
        case F::Started: holds = RunFilterQuery::holdsForText(term, qs(r.startedAt).toLower()); break;
        case F::Dataset: holds = RunFilterQuery::holdsForText(term, r.dataset.toLower()); break;
        case F::Model: holds = RunFilterQuery::holdsForText(term, r.model.toLower()); break;
        case F::Position: holds = RunFilterQuery::holdsForText(term, r.position.toLower()); break;
        case F::Status: holds = RunFilterQuery::holdsForText(term, qs(toString(r.summary.status))); break;
        case F::Device: holds = RunFilterQuery::holdsForText(term, r.device.toLower()); break;
        case F::Notes: holds = RunFilterQuery::holdsForText(term, r.notes.toLower()); break;
        case F::Tags:
            if (term.op == RunFilterQuery::Op::Equal || term.op == RunFilterQuery::Op::NotEqual) {
                // "tag=thesis": one of the tags is exactly it (not "thesis-quick").
                bool any = false;
                for (const QString& t : tagList(r.tags))
                    any = any || t.toLower() == term.text;
                holds = (any == (term.op == RunFilterQuery::Op::Equal)) != term.negated;
            } else {
                holds = RunFilterQuery::holdsForText(term, r.tags.toLower());
            }
            break;
        }
        if (!holds)
            return false;
    }
    return true;
}

bool RunTableModel::lessThan(int a, int b, int column) const
{
    const Row& x = rows_[static_cast<std::size_t>(a)];
    const Row& y = rows_[static_cast<std::size_t>(b)];
    // A run without a figure sorts below every run with one.
    auto figure = [](bool has, double v) { return has ? v : -std::numeric_limits<double>::infinity(); };
    auto text = [](const QString& p, const QString& q) { return p.compare(q, Qt::CaseInsensitive) < 0; };
    switch (column) {
    case Id: return x.id < y.id;
    case Name: return text(x.name, y.name);
    case Started: return x.startedAt < y.startedAt;
    case Dataset: return text(x.dataset, y.dataset);
    case Model: return text(x.model, y.model);
    case Position: return text(x.position, y.position);
    case Status: return toString(x.summary.status) < toString(y.summary.status);
    case BestDev: return figure(x.hasDev, x.dev) < figure(y.hasDev, y.dev);
    case Test: return figure(x.hasTest, x.test) < figure(y.hasTest, y.test);
    case Device: return text(x.device, y.device);
    case Steps: return x.summary.steps < y.summary.steps;
    case Seconds: return x.summary.seconds < y.summary.seconds;
    case Tags: return text(x.tags, y.tags);
    case Notes: return text(x.notes, y.notes);
    default: return false;
    }
}

int RunTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunTableModel::display(const Row& r, int column) const
{
    const bool regression = r.summary.regression;
    switch (column) {
    case Id: return QString::number(r.id);
    case Name: return r.name;
    case Started: return localTime(r.startedAt);
    case Dataset: return r.dataset;
    case Model: return r.model;
    case Position: return r.takesPosition ? r.position : QStringLiteral("—");
    case Status: return qs(toString(r.summary.status));
    // Fixed decimals ("19.00", not "19"), as the figure is worded elsewhere.
    case BestDev: return r.hasDev ? QString::number(r.dev, 'f', regression ? 4 : 1) : QString();
    case Test: return r.hasTest ? QString::number(r.test, 'f', regression ? 4 : 1) : QString();
    case Device: return r.device;
    case Steps: return QString::number(r.summary.steps);
    case Seconds: return r.summary.status != RunStatus::Running ? QString::number(r.summary.seconds, 'f', 1) : QString();
    case Tags: return r.tags;
    case Notes: return r.notes;
    default: return {};
    }
}

QVariant RunTableModel::sortValue(const Row& r, int column) const
{
    switch (column) {
    case Id: return r.id;
    case Started: return qs(r.startedAt);
    case BestDev: return r.hasDev ? QVariant(r.dev) : QVariant();
    case Test: return r.hasTest ? QVariant(r.test) : QVariant();
    case Steps: return r.summary.steps;
    case Seconds: return r.summary.status != RunStatus::Running ? QVariant(r.summary.seconds) : QVariant();
    default: return display(r, column);
    }
}

QVariant RunTableModel::toolTip(const Row& r, int column) const
{
    if (column == Status && !r.message.isEmpty())
        return r.message;
    if (column == Test && r.hasTest)
        return qs(RunResult(r.summary).testDetail());
    if (column == Position && !r.takesPosition)
        return tr("%1 takes no position technique").arg(r.model);
    if (column == Notes)
        return r.notes.isEmpty() ? tr("Double-click to add notes") : r.notes;
    return qs(r.configJson); // every other cell: the run's whole configuration
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size()))
        return {};
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return display(r, index.column());
    case SortRole: return sortValue(r, index.column());
    case RunIdRole: return r.id;
    case Qt::ToolTipRole: return toolTip(r, index.column());
    case Qt::TextAlignmentRole:
        if (numeric(index.column()))
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    default: return {};
    }
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Id: return tr("Run");
        case Name: return tr("Name");
        case Started: return tr("Started");
        case Dataset: return tr("Dataset");
        case Model: return tr("Model");
        case Position: return tr("Position");
        case Status: return tr("Status");
        case BestDev: return tr("Best dev");
        case Test: return tr("Test");
        case Device: return tr("Device");
        case Steps: return tr("Steps");
        case Seconds: return tr("Seconds");
        case Tags: return tr("Tags");
        case Notes: return tr("Notes");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        const QString metricTip = tr("Accuracy in % for sentiment runs; RMSE (de-normalised) for time-series runs");
        switch (section) {
        case Name: return tr("Select the run and press F2 to rename it");
        case BestDev: return metricTip;
        case Test: return metricTip + tr(", measured with the best-dev weights");
        case Tags: return tr("Double-click to edit: comma-separated tags");
        case Notes: return tr("Double-click to edit");
        default: return {};
        }
    }
    return {};
}

Qt::ItemFlags RunTableModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && (index.column() == Tags || index.column() == Notes))
        f |= Qt::ItemIsEditable;
    return f;
}

bool RunTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || (index.column() != Tags && index.column() != Notes))
        return false;
    Row& r = rows_[static_cast<std::size_t>(index.row())];
    // Shown at once as it will be stored; the owner's refresh from the store confirms it.
    if (index.column() == Tags) {
        const QStringList tags = tagList(value.toString());
        r.tags = tags.join(QStringLiteral(", "));
        updateSearch(r);
        emit dataChanged(index, index);
        emit tagsEdited(r.id, tags);
    } else {
        r.notes = value.toString();
        updateSearch(r);
        emit dataChanged(index, index);
        emit notesEdited(r.id, r.notes);
    }
    return true;
}

} // namespace attnlab::ui
