#pragma once

#include <map>
#include <string>
#include <vector>

namespace ps {
class Program;
}

/// What `info` reports: op counts by full name (nested regions included) and the program's
/// interface as Paddle's loader sees it: inputs are `pd_op.data`/`pd_op.feed` names, parameters
/// `builtin.parameter` names, outputs `builtin.shadow_output` / `pd_op.fetch` names, all in
/// program order, top level only.
struct ProgramSummary
{
    explicit ProgramSummary(const ps::Program &program);

    size_t ops = 0;
    size_t opsTotal = 0;
    size_t values = 0;
    std::map<std::string, size_t> opCounts;
    std::vector<std::string> inputs;
    std::vector<std::string> parameters;
    std::vector<std::string> outputs;
};
