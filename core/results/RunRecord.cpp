#include "core/results/RunRecord.h"

namespace attnlab {

RunSummary RunRecord::summary() const
{
    RunSummary s;
    s.status = status;
    s.steps = steps;
    s.seconds = seconds;
    s.bestDevAccuracy = bestDevAccuracy;
    s.bestStep = bestStep;
    s.testAccuracy = testAccuracy;
    s.regression = regression;
    s.bestDevRmse = bestDevRmse;
    s.testMae = testMae;
    s.testRmse = testRmse;
    s.testMape = testMape;
    s.testMacroF1 = testMacroF1;
    s.stoppedEarly = stoppedEarly;
    s.parameters = parameters;
    s.device = device;
    s.message = message;
    return s;
}

} // namespace attnlab
