#pragma once
#include "core/sweep/SweepOutcome.h"
#include "core/sweep/SweepProgress.h"
#include "core/sweep/SweepRun.h"

namespace attnlab {

// What a LocalExecutor tells its caller (the CLI prints it on stderr). Called on the executor's thread.
class SweepObserver {
public:
    virtual ~SweepObserver() = default;
    virtual void onRunStarted(int /*worker*/, const SweepRun& /*run*/) {}
    virtual void onRunFinished(int /*worker*/, const SweepOutcome& /*outcome*/) {}
    virtual void onProgress(const SweepProgress& /*progress*/) {}
};

} // namespace attnlab
