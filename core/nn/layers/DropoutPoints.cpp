#include "core/nn/layers/DropoutPoints.h"

#include <sstream>

namespace attnlab {

DropoutPointsImpl::DropoutPointsImpl(const ModelConfig& config)
    : input_(1.0 - config.keepAt("input")), hidden_(1.0 - config.keepAt("hidden")), output_(1.0 - config.keepAt("output"))
{
}

std::string DropoutPointsImpl::describe() const
{
    std::ostringstream s;
    const char* names[] = {"input", "hidden", "output"};
    const double drops[] = {input_, hidden_, output_};
    for (int i = 0; i < 3; ++i)
        if (drops[i] > 0.0)
            s << (s.tellp() > 0 ? ", " : "") << names[i] << " " << 1.0 - drops[i];
    return s.tellp() > 0 ? s.str() : "none";
}

} // namespace attnlab
