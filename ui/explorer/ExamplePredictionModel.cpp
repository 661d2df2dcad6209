#include "ui/explorer/ExamplePredictionModel.h"

#include <QColor>

namespace attnlab::ui {

ExamplePredictionModel::ExamplePredictionModel(QObject* parent) : QAbstractTableModel(parent) {}

void ExamplePredictionModel::setExamples(const std::vector<TextExample>& examples,
                                         const std::vector<ExamplePrediction>& predictions, const QStringList& classNames)
{
    beginResetModel();
    texts_.clear();
    for (const auto& e : examples) {
        QStringList words;
        for (const auto& t : e.tokens)
            words << QString::fromStdString(t);
        texts_.push_back(words.join(QLatin1Char(' ')));
    }
    predictions_ = predictions;
    predictions_.resize(texts_.size());
    classes_ = classNames;
    endResetModel();
}

int ExamplePredictionModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(texts_.size());
}

int ExamplePredictionModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ExamplePredictionModel::textAt(int row) const
{
    return row >= 0 && row < static_cast<int>(texts_.size()) ? texts_[static_cast<std::size_t>(row)] : QString();
}

QVariant ExamplePredictionModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(texts_.size()))
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const ExamplePrediction& p = predictions_[row];
    const auto className = [this](int c) { return c >= 0 && c < classes_.size() ? classes_[c] : QString::number(c); };
    if (role == GoldRole)
        return p.gold;
    if (role == PredictedRole)
        return p.predicted;
    if (role == Qt::DisplayRole || role == Qt::UserRole) {
        switch (index.column()) {
        case Index: return role == Qt::UserRole ? QVariant(index.row() + 1) : QVariant(QString::number(index.row() + 1));
        case Text: return texts_[row];
        case Gold: return className(p.gold);
        case Predicted: return className(p.predicted);
        case Confidence:
            return role == Qt::UserRole ? QVariant(static_cast<double>(p.confidence()))
                                        : QVariant(QStringLiteral("%1%").arg(100.0 * p.confidence(), 0, 'f', 1));
        default: return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == Predicted && !p.correct())
        return QColor(0xb3, 0x58, 0x06); // the misclassified stand out, in the palette's warning orange
    if (role == Qt::ToolTipRole && index.column() == Text)
        return tr("Double-click to open it in the explorer");
    if (role == Qt::TextAlignmentRole && (index.column() == Index || index.column() == Confidence))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ExamplePredictionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Index: return tr("#");
    case Text: return tr("Text");
    case Gold: return tr("Gold");
    case Predicted: return tr("Predicted");
    case Confidence: return tr("Confidence");
    default: return {};
    }
}

} // namespace attnlab::ui
