#include "ui/analysis/RunPalette.h"

#include <array>

namespace attnlab::ui {
namespace {

const std::array<QColor, 8> kOkabeIto{
    QColor(0, 114, 178),   // blue
    QColor(213, 94, 0),    // vermillion
    QColor(0, 158, 115),   // bluish green
    QColor(204, 121, 167), // reddish purple
    QColor(230, 159, 0),   // orange
    QColor(86, 180, 233),  // sky blue
    QColor(190, 170, 0),   // yellow (#F0E442 is too pale for a thin line on white)
    QColor(0, 0, 0),       // black
};

} // namespace

QColor RunPalette::colour(int index)
{
    const int n = size();
    return kOkabeIto[static_cast<std::size_t>(((index % n) + n) % n)];
}

int RunPalette::size()
{
    return static_cast<int>(kOkabeIto.size());
}

} // namespace attnlab::ui
