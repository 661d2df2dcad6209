#include "cli/CliApp.h"
#include "core/platform/AllocatorTuning.h"

#ifdef ATTNLAB_CLI_PLOTS
#include "ui/analysis/CurvePlotRenderer.h"
#endif

#include <iostream>

int main(int argc, char** argv)
{
    attnlab::AllocatorTuning::applyForTraining(); // before the first large allocation
#ifdef ATTNLAB_CLI_PLOTS
    attnlab::PlotRenderer::install(std::make_unique<attnlab::ui::CurvePlotRenderer>());
#endif
    return attnlab::CliApp(std::cout, std::cerr).run(std::vector<std::string>(argv + 1, argv + argc));
}
