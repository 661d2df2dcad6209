#include "core/config/DeviceSetting.h"

namespace attnlab {

std::string DeviceSetting::problem(const std::string& setting)
{
    if (setting == "auto" || setting == "cpu" || setting == "cuda")
        return "";
    if (setting.rfind("cuda:", 0) == 0) {
        const std::string index = setting.substr(5);
        if (!index.empty() && index.size() <= 3 && index.find_first_not_of("0123456789") == std::string::npos)
            return "";
        return "device: '" + setting + "' is not a CUDA device (write cuda:0, cuda:1, ...)";
    }
    return "device: unknown '" + setting + "' (known: auto, cpu, cuda, cuda:N)";
}

} // namespace attnlab
