#include "trainmode.h"

#include "cliarguments.h"
#include "core/ir/valuenumbering.h"
#include "core/transform/partialprogram.h"
#include "core/transform/programroles.h"

namespace {

/// The layer over `program` and its roles; nullptr with `error` when nothing has a gradient.
std::unique_ptr<ps::PartialProgramLayer> trainLayer(const ps::Program &program, ps::PipelineFlavour flavour,
    const std::vector<std::string> &outputs, std::string &error)
{
    ps::ProgramRoles roles = ps::ProgramRoles::ofProgram(program,
        outputs.empty() ? ps::ProgramRoles::OutputFallback::UnusedResults
                        : ps::ProgramRoles::OutputFallback::None);
    if (!outputs.empty()) {
        const ps::ValueNumbering numbering(program);
        std::vector<ps::NestNode> leaves;
        for (const std::string &id : outputs) {
            const ps::Value v = numbering.lookup(id);
            if (!v) {
                error
                    = "--output " + id + ": no such value (ids as `pirscope-cli print` shows them, e.g. %5)";
                return nullptr;
            }
            leaves.push_back(ps::NestNode::leaf(v));
        }
        roles.outputs = ps::NestNode::list(std::move(leaves));
    }
    if (roles.outputValues().empty()) {
        error = "--mode train: the program has no outputs (no shadow_output or fetch op, no unused result)";
        return nullptr;
    }
    if (!roles.hasDifferentiable()) {
        error = "--mode train: no input or parameter of the program needs a gradient (all are stop_gradient)";
        return nullptr;
    }
    return roles.makeLayer(program, flavour);
}

} // namespace

bool trainModeOption(const CliArguments &cli, bool &train, std::string &error)
{
    const std::string mode = cli.option("mode").value_or("infer");
    train = mode == "train";
    if (train || mode == "infer")
        return true;
    error = "--mode needs train or infer, got '" + mode + "'";
    return false;
}

std::vector<std::string> outputOptions(const CliArguments &cli)
{
    return cli.options("output");
}

std::optional<ps::RunnableProgram> plainTrainProgram(const ps::Program &program, ps::PipelineFlavour flavour,
    const std::vector<std::string> &outputs, std::string &error)
{
    std::unique_ptr<ps::PartialProgramLayer> layer = trainLayer(program, flavour, outputs, error);
    if (!layer)
        return std::nullopt;
    std::optional<ps::RunnableProgram> train
        = ps::PartialProgramLayer::defaultBackwardFn(flavour)(layer->originRunnableProgram().clone(), error);
    if (!train)
        error = "--mode train: the backward could not be built: " + error;
    return train;
}

std::optional<ps::PipelineResult> plainTrainPipeline(const ps::Program &program, ps::PipelineFlavour flavour,
    const std::vector<std::string> &outputs, std::string &error)
{
    std::unique_ptr<ps::PartialProgramLayer> layer = trainLayer(program, flavour, outputs, error);
    if (!layer)
        return std::nullopt;
    layer->setRecordPassSteps(false);
    ps::PipelineResult result = layer->snapshot(true);
    if (!result.ok()) {
        error = "--mode train: the backward could not be built";
        for (const std::string &d : result.diagnostics)
            error += "; " + d;
        return std::nullopt;
    }
    return result;
}
