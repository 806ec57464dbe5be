#include "commands.h"

#include <string>

// This pirscope-cli was configured with -DPIRSCOPE_GUI=OFF: drawing graphs needs Qt Gui, Qt Svg and
// Graphviz (ui/render), which that build leaves out.

namespace {
const char *const kNeedsGui = " needs the GUI build: configure with -DPIRSCOPE_GUI=ON (Qt 6 Gui and Svg, "
                              "Graphviz); this pirscope-cli was built without them";
} // namespace

int runRender(const std::vector<std::string> &)
{
    return cliError(std::string("render") + kNeedsGui);
}

int runBenchLayout(const std::vector<std::string> &)
{
    return cliError(std::string("bench layout") + kNeedsGui);
}
