#include "ui/setup/DatasetStatisticsCache.h"

#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/DatasetStatistics.h"
#include "ui/StdStrings.h"

#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace attnlab::ui {
namespace {

QString esc(const std::string& s) { return qs(s).toHtmlEscaped(); }

QString percent(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? QString::number(100.0 * double(part) / double(whole), 'f', 1) + QStringLiteral(" %") : QString();
}

// A language model's splits are streams: their tokens, the vocabulary, and the loss to go below.
QString renderStream(const DatasetStatistics& s)
{
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='2'><tr><th align='left'>%1</th><th align='right'>%2</th></tr>")
                       .arg(QObject::tr("split"), esc(s.unit));
    for (const auto& split : s.splits)
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td></tr>").arg(esc(split.name), QLocale().toString(split.examples));
    html += QStringLiteral("</table>");
    html += QObject::tr("Vocabulary %1 %2 (train %3)").arg(s.vocabularySize).arg(esc(s.unit)).arg(s.trainVocabularySize);
    if (s.block > 0)
        html += QObject::tr("; blocks of %1").arg(s.block);
    html += QStringLiteral("<br>") + QObject::tr("Without context (train's counts): dev loss %1 nats a token")
                                         .arg(QLocale().toString(s.unigramDevLoss, 'f', 2));
    return html;
}

QString render(const DatasetStatistics& s)
{
    if (s.task == TaskKind::LanguageModel)
        return renderStream(s);
    const bool regression = s.task == TaskKind::Regression;
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='2'><tr><th align='left'>%1</th>"
                                  "<th align='right'>%2</th>")
                       .arg(QObject::tr("split"), regression ? QObject::tr("windows") : QObject::tr("examples"));
    html += regression ? QStringLiteral("<th align='right'>%1</th></tr>").arg(QObject::tr("target range"))
                       : QStringLiteral("<th align='right'>%1</th><th align='right'>%2</th></tr>")
                             .arg(QObject::tr("avg length"), QObject::tr("max"));
    for (const auto& split : s.splits) {
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td>").arg(esc(split.name)).arg(split.examples);
        if (regression)
            html += QStringLiteral("<td align='right'>%1 … %2</td></tr>")
                        .arg(split.targetMin, 0, 'f', 2).arg(split.targetMax, 0, 'f', 2);
        else
            html += QStringLiteral("<td align='right'>%1</td><td align='right'>%2</td></tr>")
                        .arg(split.averageLength, 0, 'f', 1).arg(split.maxLength);
    }
    html += QStringLiteral("</table>");
    if (regression) {
        html += QObject::tr("Window %1 steps; target %2; %3 driving series")
                    .arg(s.window).arg(esc(s.target)).arg(s.drivers.size());
        return html;
    }
    // Class balance of the training split.
    if (!s.splits.empty() && !s.classes.empty()) {
        const auto& train = s.splits.front();
        QStringList classes;
        for (std::size_t c = 0; c < s.classes.size() && c < train.classCounts.size(); ++c)
            classes << QStringLiteral("%1 %2 (%3)").arg(esc(s.classes[c])).arg(train.classCounts[c])
                           .arg(percent(train.classCounts[c], train.examples));
        html += QObject::tr("%1 classes, train balance: %2").arg(s.classes.size()).arg(classes.join(QStringLiteral(", ")));
        html += QStringLiteral("<br>");
    }
    html += QObject::tr("Vocabulary %1 words (train %2)").arg(s.vocabularySize).arg(s.trainVocabularySize);
    return html;
}

QString missingData(const std::string& id, const std::string& problem)
{
    const std::string folder = DatasetCatalog::dataFolder(id);
    const auto dirs = DataLocator::searchPath();
    QString html = QObject::tr("<b>Data not found.</b> Put the files of %1 in <code>%2</code> (the folder "
                               "<code>%3</code> of the shared datasets layout), or set <code>ATTNLAB_DATA_DIR</code> "
                               "to a folder that holds <code>%3</code>; <code>attnlab-cli fetch %1</code> or "
                               "<code>attnlab-cli import %1 PATH</code> puts them there.")
                       .arg(esc(id), esc(DataLocator::join(dirs.front(), folder)), esc(folder));
    return html + QStringLiteral("<br><small>") + esc(problem) + QStringLiteral("</small>");
}

} // namespace

DatasetStatisticsCache::DatasetStatisticsCache(QObject* parent) : QObject(parent) {}

DatasetStatisticsCache::~DatasetStatisticsCache()
{
    // Running computations finish on the pool; their results are dropped with the watchers.
    for (auto* watcher : std::as_const(pending_))
        watcher->disconnect(this);
}

const DatasetStatisticsCache::Entry* DatasetStatisticsCache::cached(const QString& id) const
{
    auto it = entries_.constFind(id);
    return it == entries_.constEnd() ? nullptr : &it.value();
}

void DatasetStatisticsCache::request(const QString& id)
{
    if (entries_.contains(id) || pending_.contains(id))
        return;
    auto* watcher = new QFutureWatcher<Entry>(this);
    pending_.insert(id, watcher);
    const int generation = generation_;
    connect(watcher, &QFutureWatcher<Entry>::finished, this, [this, watcher, id, generation] {
        watcher->deleteLater();
        if (pending_.value(id) == watcher)
            pending_.remove(id);
        if (generation != generation_)
            return; // cleared meanwhile
        entries_.insert(id, watcher->result());
        emit ready(id);
    });
    watcher->setFuture(QtConcurrent::run([id, dir = dataDir_] { return compute(id, dir); }));
}

void DatasetStatisticsCache::clear()
{
    ++generation_;
    entries_.clear();
    pending_.clear(); // their watchers still finish and delete themselves, their results ignored
}

void DatasetStatisticsCache::setDataDir(const QString& dir)
{
    if (dir == dataDir_)
        return;
    dataDir_ = dir;
    clear();
}

DatasetStatisticsCache::Entry DatasetStatisticsCache::compute(const QString& qid, const QString& dataDir)
{
    Entry entry;
    entry.id = qid;
    const std::string id = qid.toStdString();
    DatasetOptions options;
    options.dataDir = dataDir.toStdString();
    try {
        const DatasetStatistics s = DatasetStatistics::of(DatasetCatalog::loadAny(id, options));
        entry.ok = true;
        entry.html = render(s);
        QStringList parts;
        for (const auto& split : s.splits)
            parts << QStringLiteral("%1 %2").arg(qs(split.name)).arg(split.examples);
        entry.summary = parts.join(QStringLiteral(" / "));
        if (s.task == TaskKind::LanguageModel)
            entry.summary += QLatin1Char(' ') + qs(s.unit);
    } catch (const DataError& e) {
        const bool ownFiles = qid.startsWith(QLatin1String("csv-"));
        entry.html = ownFiles ? QObject::tr("Your own CSV file: its statistics need the file "
                                            "(<code>attnlab-cli stats %1 --file F</code>).").arg(qid.toHtmlEscaped())
                 : std::string(e.what()).find("not found in the data folders") != std::string::npos
                     ? missingData(id, e.what())
                     : QObject::tr("Cannot read %1: %2").arg(qid.toHtmlEscaped(), esc(e.what()));
    } catch (const std::exception& e) {
        entry.html = QObject::tr("No statistics: %1").arg(esc(e.what()));
    }
    return entry;
}

} // namespace attnlab::ui
