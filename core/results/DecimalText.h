#pragma once
#include <string>

namespace attnlab {

// `value` with exactly `decimals` digits after the point, as printf's "%.*f" and Python's f"{v:.{d}f}" write it
// (sacreBLEU's signature, the results tables, the run's summary line): one spelling for every place that prints
// a rounded number.
std::string fixedDecimals(double value, int decimals);

} // namespace attnlab
