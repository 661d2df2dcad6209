#pragma once
#include <string>

namespace attnlab {

// The device setting's shape, checked without asking any device: auto | cpu | cuda | cuda:N.
// ComputeDevice::resolve then checks it against the devices present.
class DeviceSetting {
public:
    static std::string problem(const std::string& setting); // "" when well formed
};

} // namespace attnlab
