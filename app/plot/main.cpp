// scaleview-plot: `scaleview-cli plot` itself. It lives apart so that scaleview-cli links no Qt
// Widgets or Charts: summarize and run start in milliseconds, and only plot pays for Qt's GUI
// libraries. scaleview-cli execs this program with the same arguments.

#include "app/cli/commands.h"

#include <string>
#include <vector>

int main(int argc, char** argv) {
    return sv::cli::plotCommand(std::vector<std::string>(argv + 1, argv + argc));
}
