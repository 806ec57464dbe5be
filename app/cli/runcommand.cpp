#include "commands.h"

int runRun(const std::vector<std::string> &)
{
    return cliError("not built yet");
}
