#include "core/results/RunStatus.h"

#include <stdexcept>

namespace attnlab {

std::string toString(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return "running";
    case RunStatus::Completed: return "completed";
    case RunStatus::Cancelled: return "cancelled";
    case RunStatus::Diverged: return "diverged";
    case RunStatus::Failed: return "failed";
    case RunStatus::Interrupted: return "interrupted";
    }
    return "unknown";
}

RunStatus runStatusFromString(const std::string& text)
{
    for (auto s : {RunStatus::Running, RunStatus::Completed, RunStatus::Cancelled, RunStatus::Diverged,
                   RunStatus::Failed, RunStatus::Interrupted})
        if (toString(s) == text)
            return s;
    throw std::invalid_argument("unknown run status '" + text + "'");
}

} // namespace attnlab
