#pragma once
#include "core/results/RunSummary.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QString>

#include <vector>

namespace attnlab::ui {

// The live comparison's result strip: one row per compared run that ended, in the order they ended:
// the run (its colour and "model + position"), status, best dev, test, parameters, seconds, steps per
// second, and what the run's preset is expected to reach (a lesson on real data). Display text follows RunResult (accuracy in %, RMSE for time series); Qt::UserRole gives the
// numbers (dev/test as RunResult's values, NaN where there is none) and column 0's run id.
class ComparisonResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RunColumn, StatusColumn, DevColumn, TestColumn, ExpectedColumn, ParamsColumn, SecondsColumn, SpeedColumn, ColumnCount };

    explicit ComparisonResultsModel(QObject* parent = nullptr);

    void clear();
    // `expected`: what docs/RESULTS.md measured for the run's preset (a lesson on real data), else empty.
    void addResult(qint64 runId, const QString& label, const QColor& colour, const attnlab::RunSummary& summary,
                   const QString& expected = {});

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        qint64 runId = 0;
        QString label;
        QColor colour;
        attnlab::RunSummary summary;
        QString expected;
    };
    std::vector<Row> rows_;
};

} // namespace attnlab::ui
