#pragma once
#include <QSortFilterProxyModel>

namespace attnlab::ui {

// The dataset browser's filters over an ExamplePredictionModel: only the misclassified, a gold and/or a
// predicted class (a confusion-matrix cell sets both), and words in the text (case-insensitive).
class ExampleFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ExampleFilterProxy(QObject* parent = nullptr);
    void setMisclassifiedOnly(bool on);
    void setClasses(int gold, int predicted); // -1: any
    void setText(const QString& text);
    int gold() const { return gold_; }
    int predicted() const { return predicted_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool misclassifiedOnly_ = false;
    int gold_ = -1, predicted_ = -1;
    QString text_;
};

} // namespace attnlab::ui
