#include "commands.h"

int runBenchPipeline(const std::vector<std::string> &)
{
    return cliError("not built yet");
}
