#pragma once
// The encoder-decoders at bentrevett/pytorch-seq2seq's sizes, trained briefly in-process for a benchmark
// (attnlab-bench-translate, attnlab-bench-alignment): Bahdanau with 256-d embeddings and a 512-unit GRU; a
// 3+3-layer Transformer of d_model 256 with 8 heads and FFN 512, sinusoidal positions.
#include "core/data/TranslationDataset.h"
#include "core/platform/CancelToken.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/Trainer.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace attnlab::bench {

// Trains `model` ("bahdanau" or "transformer-seq2seq") on `data` for `steps` steps into `store`, keeping its weights;
// returns the run's id. The split is decoded once at the end of training, which no benchmark measures: the dev set is
// cut to `devPairs` and the test set to 8.
inline std::int64_t trainReferenceRun(RunStore& store, const TranslationDataset& data, const std::string& dataset,
                                      const std::string& model, int steps, int threads, std::size_t devPairs)
{
    const bool bahdanau = model == "bahdanau";
    TrainConfig c;
    c.dataset = dataset;
    c.model.model = model;
    c.model.position = bahdanau ? "none" : "sinusoidal";
    c.model.dModel = bahdanau ? 512 : 256;
    c.model.embeddingDim = bahdanau ? 256 : 0;
    c.model.layers = bahdanau ? 1 : 3;
    c.model.heads = bahdanau ? 1 : 8;
    c.model.ffnHidden = bahdanau ? 0 : 512;
    c.steps = steps;
    c.evalEvery = steps;
    c.batchSize = 32;
    c.device = "cpu";
    c.threads = threads;
    c.checkpointDir = RunStore::checkpointFolderOf(store.path());
    TranslationDataset small = data;
    small.dev.resize(std::min(small.dev.size(), devPairs));
    small.test.resize(std::min<std::size_t>(small.test.size(), 8));
    StoreObserver observer(store);
    CancelToken cancel;
    Trainer(c).run(small, observer, cancel);
    return observer.runId();
}

} // namespace attnlab::bench
