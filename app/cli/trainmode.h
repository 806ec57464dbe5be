#pragma once

#include "core/transform/pipelineresult.h"
#include "core/transform/runnableprogram.h"

#include <optional>
#include <string>
#include <vector>

class CliArguments;

namespace ps {
class Program;
}

/// `--mode train|infer` of split, run and passes: true for train; false (infer) when absent.
/// False with `error` set on another value.
bool trainModeOption(const CliArguments &cli, bool &train, std::string &error);

/// `--output ID` (repeatable, printer ids such as `%5`): the values a plain program returns, for
/// `--mode train` on a program that marks none (what `print(program)` shows has no shadow
/// outputs, and the results nothing uses are only a guess). Empty: the roles' own outputs.
std::vector<std::string> outputOptions(const CliArguments &cli);

/// The GUI's Train mode for a plain program (ui/pipelinesource.cpp): its roles (inputs: data ops,
/// parameters, outputs: shadow outputs and fetches, else results nothing uses) and the backward
/// that PartialProgramLayer appends (seeds of ones on every output that does not stop gradient,
/// `grad_input_<k>` / `grad_output_<k>` shadow outputs), as the whole train program with its
/// names and ranges, before the split. nullopt with `error` when there is nothing to
/// differentiate or the backward cannot be built.
std::optional<ps::RunnableProgram> plainTrainProgram(const ps::Program &program, ps::PipelineFlavour flavour,
    const std::vector<std::string> &outputs, std::string &error);

/// The same pipeline carried through split, the passes dy2static runs and program_attr: what
/// ProgramRunner runs as forward + backward.
std::optional<ps::PipelineResult> plainTrainPipeline(const ps::Program &program, ps::PipelineFlavour flavour,
    const std::vector<std::string> &outputs, std::string &error);
