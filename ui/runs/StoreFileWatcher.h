#pragma once
#include <QObject>
#include <QString>

#include <functional>

class QFileSystemWatcher;
class QTimer;

namespace attnlab {
class RunStore;
}

namespace attnlab::ui {

// The window keeps its run database open for hours, and the user may delete, move or replace the file
// meanwhile. SQLite goes on reading the file it opened, so the window would list runs that are
// no longer on disk and miss those written into a file put back. This watches the file and its folder, and
// at each change (and each refresh, check()) makes the store follow the path:
// - another file is there (a training run's writer wrote the database back, or the user put another run
//   database there): the store reopens onto it;
// - nothing is there while this window trains into it: wait, the run's writer writes it back at its next
//   commit;
// - nothing is there otherwise: after kWriteBackDelayMs (time for a run of another process, whose writer
//   commits every second and writes the file back itself, to do so first), the store writes it back from
//   the open connection, so nothing is lost.
// Each case is said in `message`, with what the user can do.
class StoreFileWatcher : public QObject {
    Q_OBJECT
public:
    static constexpr int kWriteBackDelayMs = 3000;

    // `trainingIntoIt`: whether a run of this window is writing to the file now.
    StoreFileWatcher(std::function<bool()> trainingIntoIt, QObject* parent = nullptr);

    void setStore(RunStore* store, const QString& path); // none: nothing is watched
    // Follows the file now; true when the store reads another file than before (refresh what shows runs).
    bool check();

signals:
    void message(const QString& text);
    void storeChanged(); // after a change seen by the watcher (not by check()): refresh what shows runs

private:
    void watch();
    bool follow(bool writeBack); // RunStore::followFile, said in `message`

    std::function<bool()> trainingIntoIt_;
    QFileSystemWatcher* watcher_;
    QTimer* writeBack_; // single shot: the write-back after kWriteBackDelayMs
    RunStore* store_ = nullptr;
    QString path_;
    bool waitingForWriter_ = false; // said once per deletion, not at every event of the folder
};

} // namespace attnlab::ui
