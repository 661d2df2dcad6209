#pragma once
#include "core/data/TextExample.h"
#include "core/results/ExamplePrediction.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace attnlab::ui {

// A split's examples with what the model made of them, for the dataset browser's table: the text, gold
// and predicted class, the predicted class's probability. Sorting uses Qt::UserRole (numbers as numbers).
class ExamplePredictionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Index, Text, Gold, Predicted, Confidence, ColumnCount };
    static constexpr int GoldRole = Qt::UserRole + 1;      // int class of the row
    static constexpr int PredictedRole = Qt::UserRole + 2; // int class of the row

    explicit ExamplePredictionModel(QObject* parent = nullptr);
    void setExamples(const std::vector<TextExample>& examples, const std::vector<ExamplePrediction>& predictions,
                     const QStringList& classNames);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    QString textAt(int row) const;

private:
    std::vector<QString> texts_;
    std::vector<ExamplePrediction> predictions_;
    QStringList classes_;
};

} // namespace attnlab::ui
