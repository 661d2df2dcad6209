#pragma once
// The Explorer suites' runs (tests/ui/test_explorer*.cpp): a small model trained into a real store on a real
// dataset, and a wait for the explorer to finish what it has in flight.
#include "core/data/DatasetCatalog.h"
#include "core/platform/CancelToken.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/Trainer.h"
#include "tests/support/SmallRunConfig.h"
#include "ui/explorer/ExplorerView.h"

#include <QString>
#include <QtTest/QtTest>

#include <string>

namespace attnlab::testing {

// Trains `model` on `dataset` into the store at `db` (essan: 2 layers of 2 heads with RPR), keeping its
// best weights as checkpoints when asked; the new run's id.
inline qint64 trainInto(const QString& db, const std::string& model, const std::string& dataset, bool keepWeights,
                        const std::string& dataDir = {}, int steps = 120)
{
    RunStore store(db.toStdString());
    TrainConfig c = smallRunConfig(model, dataset, steps, 4);
    c.dataDir = dataDir;
    if (keepWeights)
        c.checkpointDir = RunStore::checkpointFolderOf(store.path());
    StoreObserver observer(store);
    CancelToken cancel;
    DatasetOptions options;
    options.dataDir = dataDir;
    Trainer(c).run(DatasetCatalog::loadAny(dataset, options), observer, cancel);
    return observer.runId();
}

// Waits until the explorer has nothing in flight and an explanation is on screen.
inline bool settle(ui::ExplorerView& view, int timeoutMs = 20000)
{
    return QTest::qWaitFor([&] { return !view.isBusy() && view.explanation().has_value(); }, timeoutMs);
}

} // namespace attnlab::testing
