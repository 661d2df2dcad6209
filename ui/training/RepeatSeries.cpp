#include "ui/training/RepeatSeries.h"

#include "core/results/RepeatStatistics.h"

namespace attnlab::ui {

void RepeatSeries::begin(int repeats)
{
    left_ = repeats - 1;
    results_.clear();
}

void RepeatSeries::add(const RunSummary& summary) { results_.push_back(summary); }

bool RepeatSeries::startNext()
{
    const bool completed = !results_.empty() && results_.back().status == RunStatus::Completed;
    if (left_ <= 0 || !completed) {
        left_ = 0;
        return false;
    }
    --left_;
    return true;
}

QString RepeatSeries::summary(std::uint64_t lastSeed) const
{
    std::vector<double> dev, test;
    for (const RunSummary& s : results_)
        if (s.status == RunStatus::Completed) {
            dev.push_back(s.regression ? s.bestDevRmse : s.bestDevAccuracy);
            test.push_back(s.regression ? s.testRmse : s.testAccuracy);
        }
    if (test.size() < 2)
        return {};
    const bool regression = results_.front().regression;
    const double scale = regression ? 1.0 : 100.0;
    const int decimals = regression ? 4 : 1;
    return tr("%1 runs (seeds %2…%3): dev %4, test %5%6")
        .arg(test.size())
        .arg(lastSeed + 1 - test.size())
        .arg(lastSeed)
        .arg(QString::fromStdString(RepeatStatistics(dev).format(scale, decimals)),
             QString::fromStdString(RepeatStatistics(test).format(scale, decimals)),
             regression ? tr(" RMSE") : tr(" %"));
}

} // namespace attnlab::ui
