#pragma once
#include <QSortFilterProxyModel>
#include <QStringList>

namespace attnlab::ui {

class RunTableModel;

// Sorts and filters a RunTableModel for its view: a row is shown when every word of the filter occurs in
// it (case-insensitive), and columns sort by value through the model, without a QVariant per comparison,
// which keeps sorting and re-filtering 10,000 rows within a keystroke.
class RunFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunFilterProxy(RunTableModel* model, QObject* parent = nullptr);

    // Words separated by spaces; re-filters only when they changed.
    void setFilterWords(const QString& text);
    const QStringList& filterWords() const { return words_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    RunTableModel* model_;
    QStringList words_; // lower-case
};

} // namespace attnlab::ui
