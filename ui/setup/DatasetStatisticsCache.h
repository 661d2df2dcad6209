#pragma once
#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QString>

namespace attnlab::ui {

// Statistics of each dataset (core/DatasetStatistics: examples per split, class balance, lengths,
// vocabulary), computed on a QtConcurrent worker so that loading a dataset never blocks the GUI thread,
// and kept per dataset id. A dataset whose files are missing gets a message saying where to put them.
class DatasetStatisticsCache : public QObject {
    Q_OBJECT
public:
    struct Entry {
        QString id;
        bool ok = false;
        QString html;    // the statistics as a small table, or the problem
        QString summary; // plain "train 6000 / dev 600 / test 600" (tooltips, tests); empty when !ok
    };

    explicit DatasetStatisticsCache(QObject* parent = nullptr);
    ~DatasetStatisticsCache() override;

    // The cached entry, or nullptr; then request() starts computing it (once per id) and ready() follows.
    const Entry* cached(const QString& id) const;
    void request(const QString& id);
    bool isPending(const QString& id) const { return pending_.contains(id); }
    void clear(); // forget everything (the data folder changed)
    // Where real data is looked for first ("" = ATTNLAB_DATA_DIR, then the user's data folder); clears.
    void setDataDir(const QString& dir);
    const QString& dataDir() const { return dataDir_; }

    static Entry compute(const QString& id, const QString& dataDir = {}); // what a worker runs: torch-free

signals:
    void ready(const QString& id);

private:
    QHash<QString, Entry> entries_;
    QHash<QString, QFutureWatcher<Entry>*> pending_;
    int generation_ = 0;
    QString dataDir_;
};

} // namespace attnlab::ui
