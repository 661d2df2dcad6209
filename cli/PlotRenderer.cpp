#include "cli/PlotRenderer.h"

namespace attnlab {
namespace {

std::unique_ptr<PlotRenderer>& slot()
{
    static std::unique_ptr<PlotRenderer> renderer;
    return renderer;
}

} // namespace

void PlotRenderer::install(std::unique_ptr<PlotRenderer> renderer)
{
    slot() = std::move(renderer);
}

PlotRenderer* PlotRenderer::installed()
{
    return slot().get();
}

} // namespace attnlab
