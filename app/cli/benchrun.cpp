#include "commands.h"

int runBenchRun(const std::vector<std::string> &)
{
    return cliError("not built yet");
}
