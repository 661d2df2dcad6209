#include "ui/explorer/MethodStyle.h"

#include "core/config/AttributionOptions.h"
#include "ui/analysis/RunPalette.h"

#include <algorithm>

namespace attnlab::ui {

QPen MethodStyle::pen(const std::string& method)
{
    if (method == "random")
        return QPen(QColor(0x88, 0x88, 0x88), 1.5, Qt::DashLine);
    const auto& methods = AttributionOptions::methods();
    const auto at = std::find(methods.begin(), methods.end(), method) - methods.begin();
    return QPen(RunPalette::colour(static_cast<int>(at)), 2.0);
}

} // namespace attnlab::ui
