#include "ui/runs/StoreFileWatcher.h"

#include "core/store/RunStore.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

namespace attnlab::ui {

StoreFileWatcher::StoreFileWatcher(std::function<bool()> trainingIntoIt, QObject* parent)
    : QObject(parent), trainingIntoIt_(std::move(trainingIntoIt)), watcher_(new QFileSystemWatcher(this))
{
    const auto changed = [this] {
        if (check())
            emit storeChanged();
    };
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, changed);
    connect(watcher_, &QFileSystemWatcher::directoryChanged, this, changed);
    writeBack_ = new QTimer(this);
    writeBack_->setSingleShot(true);
    writeBack_->setInterval(kWriteBackDelayMs);
    // Still missing: nobody else wrote it back (while a run of this window trains, it will, so wait again).
    connect(writeBack_, &QTimer::timeout, this, [this] {
        if (follow(true))
            emit storeChanged();
    });
}

void StoreFileWatcher::setStore(RunStore* store, const QString& path)
{
    store_ = store;
    path_ = path;
    waitingForWriter_ = false;
    writeBack_->stop();
    if (!watcher_->files().isEmpty())
        watcher_->removePaths(watcher_->files());
    if (!watcher_->directories().isEmpty())
        watcher_->removePaths(watcher_->directories());
    watch();
}

void StoreFileWatcher::watch()
{
    if (!store_ || path_.isEmpty() || path_ == QLatin1String(":memory:"))
        return;
    // The folder tells when the file comes back; the file, when it is replaced by a rename over it.
    const QString folder = QFileInfo(path_).absolutePath();
    if (!watcher_->directories().contains(folder))
        watcher_->addPath(folder);
    if (QFileInfo::exists(path_) && !watcher_->files().contains(path_))
        watcher_->addPath(path_);
}

bool StoreFileWatcher::check() { return follow(false); }

bool StoreFileWatcher::follow(bool writeBack)
{
    if (!store_)
        return false;
    RunStore::FileChange change = RunStore::FileChange::None;
    try {
        change = store_->followFile(writeBack && !trainingIntoIt_());
    } catch (const std::exception& e) {
        emit message(tr("%1 changed on disk and cannot be read (%2); showing the runs it held before")
                         .arg(path_, QString::fromStdString(e.what())));
        return false;
    }
    watch();
    switch (change) {
    case RunStore::FileChange::None:
        return false;
    case RunStore::FileChange::Missing:
        if (!waitingForWriter_)
            emit message(trainingIntoIt_() ? tr("%1 was deleted: the training run writes it back at its next store").arg(path_)
                                           : tr("%1 was deleted: writing it back in a moment").arg(path_));
        waitingForWriter_ = true;
        if (!writeBack_->isActive())
            writeBack_->start();
        return false;
    case RunStore::FileChange::WrittenBack:
        waitingForWriter_ = false;
        emit message(tr("%1 was deleted while open: written back with every run it held (File > Open to use another)")
                         .arg(path_));
        return true;
    case RunStore::FileChange::Reopened:
        emit message(waitingForWriter_ ? tr("%1 was written back by the run writing to it: nothing lost").arg(path_)
                                       : tr("%1 was replaced on disk: showing the runs of the file there").arg(path_));
        waitingForWriter_ = false;
        return true;
    }
    return false;
}

} // namespace attnlab::ui
