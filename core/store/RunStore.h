#pragma once
#include "core/results/AttentionSnapshot.h"
#include "core/results/MetricPoint.h"
#include "core/results/RunSummary.h"
#include "core/store/RunFilter.h"
#include "core/store/RunListState.h"
#include "core/results/RunRecord.h"
#include "core/results/RunInfo.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// The SQLite run store: the single source of truth for history. WAL mode, batched inserts, schema
// version in PRAGMA user_version with migrations run at open. Opening it marks runs whose process died
// (status still "running", owner pid gone) as interrupted. Errors throw std::runtime_error naming the
// file ("run store FILE: ..."), with plain words for a locked (StoreLockedError), corrupt, read-only or
// deleted file and a full disk.
// One connection per object; every method takes an internal lock, so the StoreObserver's writer thread
// may share the training thread's store.
class RunStore {
public:
    static constexpr int kSchemaVersion = 3;
    static constexpr int kDefaultBusyTimeoutMs = 5000; // the GUI and a CLI run may share one file

    explicit RunStore(const std::string& path, int busyTimeoutMs = kDefaultBusyTimeoutMs);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    const std::string& path() const;
    static std::string defaultPath(); // $ATTNLAB_DB, else $XDG_DATA_HOME|~/.local/share/attnlab/runs.sqlite
    // Where runs stored in the file at storePath keep their weights by default: "checkpoints" beside it.
    static std::string checkpointFolderOf(const std::string& storePath);

    // Writing a run. beginRun records the environment it can see (versions, device, host, CPU model,
    // dataset id); setEnvironment merges the caller's JSON object into it (dataset file hashes,
    // embeddings hash, ...): keys given replace those stored.
    std::int64_t beginRun(const RunInfo& info);
    void appendMetrics(std::int64_t runId, const std::vector<MetricPoint>& points); // one transaction
    void appendAttention(std::int64_t runId, const AttentionSnapshot& snapshot);
    // A failed write (a full disk, say) is tried once more after the write-ahead log is checkpointed into
    // the database and emptied, so that a run that failed for want of room can still say why.
    void finishRun(std::int64_t runId, const RunSummary& summary);
    void setEnvironment(std::int64_t runId, const std::string& json);
    void setTags(std::int64_t runId, const std::vector<std::string>& tags);
    void setNotes(std::int64_t runId, const std::string& notes);
    // Many runs at once, each in one transaction. addTags keeps a run's tags and appends the new ones.
    void setTags(const std::vector<std::int64_t>& runIds, const std::vector<std::string>& tags);
    void setNotes(const std::vector<std::int64_t>& runIds, const std::string& notes);
    void addTags(const std::vector<std::int64_t>& runIds, const std::vector<std::string>& tags);
    // Throws std::invalid_argument for an unknown run or an empty name.
    void renameRun(std::int64_t runId, const std::string& name);
    // Removes the runs and their metrics, attention, characteristics and checkpoint rows in one
    // transaction, then deletes the checkpoint files recorded for them. Ids not in the store are ignored;
    // a run still running is refused (std::invalid_argument, nothing removed): its trainer writes to it.
    RunDeletion deleteRuns(const std::vector<std::int64_t>& runIds);
    void appendCharacteristics(std::int64_t runId, const std::vector<Characteristic>& values); // one transaction
    void addCheckpoint(std::int64_t runId, int step, const std::string& path, const std::string& sha256);
    // Keeps (replacing) an analysis of a run (StoredAnalysis); throws std::invalid_argument for an unknown run.
    void putAnalysis(std::int64_t runId, const std::string& kind, const std::string& key, const std::string& json);

    // Reading.
    std::vector<RunRecord> listRuns() const;          // newest first
    std::vector<RunRecord> listRuns(const RunFilter& filter) const;
    std::optional<RunRecord> run(std::int64_t runId) const;
    std::vector<MetricPoint> metrics(std::int64_t runId) const; // ordered by step
    std::vector<std::pair<int, double>> metricSeries(std::int64_t runId, const std::string& split,
                                                     const std::string& name) const; // (step, value) by step
    std::optional<AttentionSnapshot> latestAttention(std::int64_t runId) const;
    // The explorer's timeline: the steps with a stored snapshot (by step), and the snapshot whose step is
    // nearest to `step` (the earlier on a tie; nothing when the run has none). Read one at a time, so
    // opening a run with hundreds of snapshots reads only their steps.
    // A run with several probe inputs stores one snapshot per probe at each step, probe 0 first:
    // latestAttention and attentionNearest without a probe give probe 0; attentionProbes lists the probes
    // (their snapshots at the first step: tokens and labels).
    std::vector<int> attentionSteps(std::int64_t runId) const;
    std::optional<AttentionSnapshot> attentionNearest(std::int64_t runId, int step, int probe = 0) const;
    std::vector<AttentionSnapshot> attentionProbes(std::int64_t runId) const;
    std::vector<Characteristic> characteristics(std::int64_t runId) const; // in the order appended
    std::vector<CheckpointRef> checkpoints(std::int64_t runId) const;      // by step
    std::optional<StoredAnalysis> analysis(std::int64_t runId, const std::string& kind, const std::string& key) const;
    std::vector<StoredAnalysis> analyses(std::int64_t runId) const;      // by kind and key
    RunListState listState() const; // cheap: index reads only (RunListState says what it catches)
    std::vector<RunAggregate> aggregates() const; // one per group key, by dataset, model, position
    // The same from runs already listed (all of them): a view that has listRuns() needs no second query.
    static std::vector<RunAggregate> aggregatesOf(const std::vector<RunRecord>& runs);
    int markInterruptedRuns();                        // returns how many were marked
    // When the file was deleted (or moved) while this connection had it open, writes the database as this
    // connection sees it back under its path (VACUUM INTO beside it, then AtomicFile's rename, so a reader
    // never opens it half-written) and reopens it there, so nothing written before or after is lost;
    // returns whether it did. Throws std::runtime_error naming the file when another
    // file has taken the path. Called by StoreObserver's writer after each commit.
    bool restoreIfDeleted();
    // For a reader that keeps the store open for a long time (the window), once it learns the file changed
    // under it: when another file is at the path now (another process, or a training run's writer, wrote the
    // database back, or the user put another run database there), reopens onto it; when nothing is there and
    // writeBack is true, writes the database back like restoreIfDeleted. Throws std::runtime_error naming the
    // file when what is there now is not a run database (the connection then still reads the old file).
    enum class FileChange { None, Reopened, WrittenBack, Missing };
    FileChange followFile(bool writeBack);

    // Export and import (RunExport): everything about one run, and adding such a bundle under a new id
    // in one transaction. importRun returns 0 and adds nothing when a run with the same uuid exists.
    RunBundle bundle(std::int64_t runId) const;
    std::int64_t importRun(const RunBundle& bundle);

    // Comparing runs (the compare view, runs plot): one metric of many runs, read in one query from a
    // covering index; per run in the order of `runIds`, its (step, value) points by step (empty when it
    // has none).
    std::vector<std::vector<std::pair<int, double>>> curves(const std::vector<std::int64_t>& runIds,
                                                            const std::string& split, const std::string& name) const;

    // The group key of a configuration: its JSON without "seed" (and "checkpoint_dir"), keys sorted, no spaces.
    static std::string groupKeyOf(const std::string& configJson);

private:
    void writeFinish(std::int64_t runId, const RunSummary& summary); // the UPDATE of finishRun, lock held

    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
