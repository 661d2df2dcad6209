#include "ui/runs/RunActions.h"

#include "core/store/RunStore.h"
#include "ui/StdStrings.h"
#include "ui/runs/RunListPanel.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeySequence>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>

#include <algorithm>
#include <exception>
#include <optional>
#include <vector>

namespace attnlab::ui {
namespace {

QString counted(int n, const char* one, const char* many)
{
    return n == 1 ? QCoreApplication::translate("RunActions", one)
                  : QCoreApplication::translate("RunActions", many).arg(QLocale().toString(n));
}
QString runsText(int n) { return counted(n, QT_TRANSLATE_NOOP("RunActions", "1 run"), QT_TRANSLATE_NOOP("RunActions", "%1 runs")); }
QString filesText(int n)
{
    return counted(n, QT_TRANSLATE_NOOP("RunActions", "1 checkpoint file"), QT_TRANSLATE_NOOP("RunActions", "%1 checkpoint files"));
}
QString pointsText(int n)
{
    return counted(n, QT_TRANSLATE_NOOP("RunActions", "1 metric point"), QT_TRANSLATE_NOOP("RunActions", "%1 metric points"));
}

} // namespace

RunActions::RunActions(RunListPanel* runList, QWidget* dialogParent)
    : QObject(dialogParent), runList_(runList), dialogParent_(dialogParent)
{
    setObjectName(QStringLiteral("runActions"));
    rename_ = makeAction(tr("Re&name…"), "renameRunAction", QKeySequence(Qt::Key_F2), &RunActions::renameSelected);
    tag_ = makeAction(tr("&Tag selected…"), "tagRunsAction", {}, &RunActions::tagSelected);
    note_ = makeAction(tr("&Note selected…"), "noteRunsAction", {}, &RunActions::noteSelected);
    delete_ = makeAction(tr("&Delete selected runs…"), "deleteRunsAction", QKeySequence::Delete, &RunActions::deleteSelected);
    auto* separator = new QAction(this);
    separator->setSeparator(true);
    runList_->addRunActions({rename_, tag_, note_, separator, delete_});
    connect(runList_, &RunListPanel::selectionChanged, this, &RunActions::updateEnabled);
    // Tags and notes edited in the list's cells are written the same way as the menu's.
    connect(runList_, &RunListPanel::tagsEdited, this, [this](qint64 runId, const QStringList& tags) {
        std::vector<std::string> list;
        for (const QString& t : tags)
            list.push_back(t.toStdString());
        write([&] { store_->setTags(runId, list); }, tr("tags of run #%1 saved").arg(runId));
    });
    connect(runList_, &RunListPanel::notesEdited, this, [this](qint64 runId, const QString& notes) {
        write([&] { store_->setNotes(runId, notes.toStdString()); }, tr("notes of run #%1 saved").arg(runId));
    });
    updateEnabled();
}

QAction* RunActions::makeAction(const QString& text, const char* name, const QKeySequence& key, void (RunActions::*slot)())
{
    auto* action = new QAction(text, this);
    action->setObjectName(QLatin1String(name));
    action->setShortcut(key);
    // The table carries the actions: WidgetWithChildrenShortcut keeps Delete and F2 to it.
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(action, &QAction::triggered, this, slot);
    return action;
}

void RunActions::setStore(RunStore* store, const QString& path)
{
    store_ = store;
    path_ = path;
    updateEnabled();
}

void RunActions::addTo(QMenu* menu)
{
    menu->addActions({rename_, tag_, note_});
    menu->addSeparator();
    menu->addAction(delete_);
}

void RunActions::updateEnabled()
{
    const int selected = static_cast<int>(runList_->selectedRunIds().size());
    const bool open = store_ != nullptr;
    rename_->setEnabled(open && selected == 1);
    tag_->setEnabled(open && selected > 0);
    note_->setEnabled(open && selected > 0);
    delete_->setEnabled(open && selected > 0);
}

bool RunActions::write(const std::function<void()>& write, const QString& done)
{
    if (!store_) {
        emit message(tr("No run store is open: nothing was saved"), 0);
        return false;
    }
    bool saved = false;
    try {
        write();
        emit message(done, 5000);
        saved = true;
    } catch (const std::exception& e) {
        emit message(tr("Not saved: %1").arg(qs(e.what())), 0);
    }
    QMetaObject::invokeMethod(this, &RunActions::changed, Qt::QueuedConnection);
    return saved;
}

void RunActions::deleteSelected()
{
    QList<qint64> ids = runList_->selectedRunIds();
    if (ids.isEmpty() || !store_)
        return;
    // The live run's trainer is still writing to it.
    if (liveRunId_ != 0 && ids.removeAll(liveRunId_) > 0)
        emit message(tr("Run #%1 is training and was left out").arg(liveRunId_), 0);
    if (ids.isEmpty())
        return;
    std::vector<std::int64_t> runIds(ids.begin(), ids.end());
    int files = 0;
    try {
        for (const auto id : runIds)
            files += static_cast<int>(store_->checkpoints(id).size());
    } catch (const std::exception& e) {
        emit message(tr("Cannot read the run history: %1").arg(qs(e.what())), 0);
        return;
    }
    QMessageBox box(QMessageBox::Warning, tr("Delete runs"),
                    tr("Delete %1 with their curves, attention and characteristics from %2?")
                        .arg(runsText(static_cast<int>(runIds.size())), QFileInfo(path_).fileName()),
                    QMessageBox::NoButton, dialogParent_);
    box.setObjectName(QStringLiteral("confirmDeleteMessage"));
    box.setInformativeText((files > 0 ? tr("%1 recorded for them will be deleted from disk.").arg(filesText(files)) +
                                            QLatin1Char(' ')
                                      : QString()) +
                           tr("This cannot be undone."));
    QPushButton* remove = box.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    remove->setObjectName(QStringLiteral("confirmDeleteButton"));
    box.setDefaultButton(box.addButton(QMessageBox::Cancel));
    const int answer = box.exec();
    // A click on Delete, or the dialog accepted without a click (a keyboard or scripted accept).
    if (box.clickedButton() != remove && (box.clickedButton() != nullptr || answer != QDialog::Accepted))
        return;
    RunDeletion removed;
    try {
        removed = store_->deleteRuns(runIds);
    } catch (const std::exception& e) {
        emit warning(tr("Nothing was deleted"), qs(e.what()));
        return;
    }
    emit runsDeleted(QList<qint64>(removed.runs.begin(), removed.runs.end()));
    emit message(tr("Deleted %1 (%2, %3)")
                     .arg(runsText(static_cast<int>(removed.runs.size())), pointsText(removed.metrics),
                          filesText(static_cast<int>(removed.filesRemoved.size()))),
                 0);
    if (!removed.filesNotRemoved.empty()) {
        QStringList lines;
        for (const auto& line : removed.filesNotRemoved)
            lines << qs(line);
        emit warning(tr("Checkpoint files not removed"),
                     tr("The runs were deleted, but these files could not be removed:\n%1").arg(lines.join(QLatin1Char('\n'))));
    }
    emit changed();
}

void RunActions::renameSelected()
{
    const qint64 id = runList_->selectedRunId();
    if (id == 0 || !store_)
        return;
    std::optional<RunRecord> record;
    try {
        record = store_->run(id);
    } catch (const std::exception& e) {
        emit message(tr("Cannot read run #%1: %2").arg(id).arg(qs(e.what())), 0);
        return;
    }
    if (!record)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(dialogParent_, tr("Rename run #%1").arg(id), tr("Name:"),
                                               QLineEdit::Normal, qs(record->name), &ok)
                             .trimmed();
    if (!ok)
        return;
    if (name.isEmpty()) {
        emit message(tr("Run #%1 keeps its name: a name cannot be empty").arg(id), 0);
        return;
    }
    write([&] { store_->renameRun(id, name.toStdString()); }, tr("run #%1 renamed").arg(id));
}

void RunActions::tagSelected()
{
    const QList<qint64> ids = runList_->selectedRunIds();
    if (ids.isEmpty() || !store_)
        return;
    bool ok = false;
    const QString text = QInputDialog::getText(dialogParent_, tr("Tag %1").arg(runsText(static_cast<int>(ids.size()))),
                                               tr("Tags to add, separated by commas:"), QLineEdit::Normal, {}, &ok);
    std::vector<std::string> tags;
    for (const QString& t : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!t.trimmed().isEmpty())
            tags.push_back(t.trimmed().toStdString());
    if (!ok || tags.empty())
        return;
    const std::vector<std::int64_t> runIds(ids.begin(), ids.end());
    write([&] { store_->addTags(runIds, tags); }, tr("tags added to %1").arg(runsText(static_cast<int>(ids.size()))));
}

void RunActions::noteSelected()
{
    const QList<qint64> ids = runList_->selectedRunIds();
    if (ids.isEmpty() || !store_)
        return;
    QString current;
    if (ids.size() == 1) {
        try {
            if (const auto record = store_->run(ids.first()))
                current = qs(record->notes);
        } catch (const std::exception&) {
            // Starting from empty notes is fine; the write below reports a broken store.
        }
    }
    bool ok = false;
    const QString notes =
        QInputDialog::getMultiLineText(dialogParent_, tr("Notes for %1").arg(runsText(static_cast<int>(ids.size()))),
                                       tr("Notes (they replace the runs' notes):"), current, &ok);
    if (!ok)
        return;
    const std::vector<std::int64_t> runIds(ids.begin(), ids.end());
    write([&] { store_->setNotes(runIds, notes.toStdString()); },
          tr("notes of %1 saved").arg(runsText(static_cast<int>(ids.size()))));
}

} // namespace attnlab::ui
