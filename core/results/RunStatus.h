#pragma once
#include <string>

namespace attnlab {

enum class RunStatus { Running, Completed, Cancelled, Diverged, Failed, Interrupted };

std::string toString(RunStatus status);
RunStatus runStatusFromString(const std::string& text);

} // namespace attnlab
