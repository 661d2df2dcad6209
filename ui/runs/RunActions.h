#pragma once
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QKeySequence;
class QMenu;
class QWidget;

namespace attnlab {
class RunStore;
}

namespace attnlab::ui {

class RunListPanel;

// What a user does to the runs selected in the run list: rename (F2), tag, note, delete (Delete). Each
// asks first (a dialog over `dialogParent`) and writes through the RunStore, and says what it did in
// `message` (for the status bar) or, when something failed or was left behind, `warning`. The actions
// (object names renameRunAction, tagRunsAction, noteRunsAction, deleteRunsAction) sit in the window's
// Runs menu and the table's context menu; Delete and F2 act only while the run table has the focus, so
// they stay editing keys in a text field.
class RunActions : public QObject {
    Q_OBJECT
public:
    RunActions(RunListPanel* runList, QWidget* dialogParent);

    // The store the actions write to (none: they are disabled) and its file, named in the confirmations.
    void setStore(RunStore* store, const QString& path);
    // The run a trainer is writing to (0: none): never deleted from under it.
    void setLiveRun(qint64 runId) { liveRunId_ = runId; }
    void addTo(QMenu* menu);
    void updateEnabled();

    void renameSelected();
    void tagSelected();
    void noteSelected();
    void deleteSelected();
    // Runs `write` against the store; says `done` or why not, then asks for the list to be refreshed
    // (queued: not while the table is still finishing the edit that got here). False when not saved.
    bool write(const std::function<void()>& write, const QString& done);

signals:
    void message(const QString& text, int timeoutMs);
    void warning(const QString& title, const QString& text);
    void runsDeleted(const QList<qint64>& runIds);
    void changed(); // the stored runs changed: refresh what shows them

private:
    QAction* makeAction(const QString& text, const char* name, const QKeySequence& key, void (RunActions::*slot)());

    RunListPanel* runList_;
    QWidget* dialogParent_;
    RunStore* store_ = nullptr;
    QString path_;
    qint64 liveRunId_ = 0;
    QAction* rename_;
    QAction* tag_;
    QAction* note_;
    QAction* delete_;
};

} // namespace attnlab::ui
