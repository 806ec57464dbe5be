#include "core/transform/programroles.h"

#include "core/dialect/ops.h"
#include "core/ir/attribute.h"
#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/appendshadowoutputs.h"
#include "core/transform/gradstopgradient.h"
#include "core/transform/partialprogram.h"

#include <algorithm>

namespace ps {

namespace {

bool startsWith(const std::string &s, const char *prefix)
{
    return s.rfind(prefix, 0) == 0;
}

NestNode leafList(const std::vector<Value> &values)
{
    std::vector<NestNode> items;
    for (const Value &v : values)
        items.push_back(NestNode::leaf(v));
    return NestNode::list(std::move(items));
}

NestNode mapNode(const NestNode &node, const IrMapping &mapping)
{
    NestNode out = node;
    if (node.kind == NestNode::Kind::Value && node.value)
        out.value = mapping.lookup(node.value);
    for (NestNode &item : out.items)
        item = mapNode(item, mapping);
    return out;
}

std::vector<Value> mapValues(const std::vector<Value> &values, const IrMapping &mapping)
{
    std::vector<Value> out;
    for (const Value &v : values)
        out.push_back(v ? mapping.lookup(v) : v);
    return out;
}

/// The value leaves of a flat list, in order and with repeats (what the CLI always took).
std::vector<Value> flatLeaves(const NestNode &list)
{
    std::vector<Value> out;
    for (const NestNode &item : list.items)
        if (item.kind == NestNode::Kind::Value)
            out.push_back(item.value);
    return out;
}

bool isDataOrParameter(std::string_view name)
{
    return name == ops::kData || name == ops::kParameter;
}

} // namespace

ProgramRoles ProgramRoles::ofProgram(const Program &program, OutputFallback fallback)
{
    ProgramRoles roles;
    const Block &block = program.block();
    std::vector<Value> inputs, outputs;
    for (size_t i = 0; i < block.size(); ++i) {
        const Operation *op = block.op(i);
        const std::string_view name = op->name();
        if (name == ops::kData) {
            inputs.push_back(op->result(0));
        } else if (name == ops::kParameter) {
            roles.parameters.push_back(op->result(0));
        } else if (name == ops::kShadowOutput) {
            const std::string output = op->stringAttribute("output_name");
            if (startsWith(output, "grad_input_")) {
                roles.seeds.push_back(op->operand(0));
                roles.lastSeed = i;
            } else if (startsWith(output, "grad_output_")) {
                roles.grads.push_back(op->operand(0));
                if (!roles.firstGrad && roles.lastSeed)
                    roles.firstGrad = i;
            } else if (!roles.lastSeed) {
                outputs.push_back(op->operand(0));
                roles.forwardEnd = i + 1;
            }
        } else if (name == ops::kFetch && op->numOperands() == 1) {
            outputs.push_back(op->operand(0));
        }
    }
    // dy2static's ParametersRecorder.pop sorts the layer's parameters by name (a stable sort:
    // a parameter op without `parameter_name` keeps its place among the unnamed).
    std::stable_sort(roles.parameters.begin(), roles.parameters.end(), [](const Value &a, const Value &b) {
        return a.definingOp()->stringAttribute("parameter_name")
            < b.definingOp()->stringAttribute("parameter_name");
    });
    roles.trainLayout = roles.lastSeed.has_value();
    if (roles.trainLayout)
        roles.notes.push_back("the program holds its backward already (grad_input_/grad_output_ shadow "
                              "outputs): it is used as the train program");
    if (outputs.empty() && fallback == OutputFallback::UnusedResults) {
        for (const Operation *op : block.ops()) {
            if (isDataOrParameter(op->name()))
                continue;
            for (Value r : op->results())
                if (r.type() && !r.hasUses())
                    outputs.push_back(r);
        }
        roles.notes.push_back(outputs.empty()
                ? "no shadow_output or fetch op and no unused result: the program has no outputs"
                : "no shadow_output or fetch op: the results nothing uses are taken as outputs");
    }
    roles.inputs = leafList(inputs);
    roles.outputs = leafList(outputs);
    return roles;
}

std::vector<Value> ProgramRoles::inputValues() const
{
    return NestSequence(inputs).varList();
}

std::vector<Value> ProgramRoles::outputValues() const
{
    return NestSequence(outputs).varList();
}

bool ProgramRoles::hasDifferentiable() const
{
    auto differentiable = [](const Value &v) {
        return v && v.type() && v.type().kind() == Type::Kind::DenseTensor
            && !explicitStopGradient(v).value_or(false);
    };
    const std::vector<Value> in = inputValues();
    return std::any_of(in.begin(), in.end(), differentiable)
        || std::any_of(parameters.begin(), parameters.end(), differentiable);
}

std::unique_ptr<PartialProgramLayer> ProgramRoles::makeLayer(
    const Program &origin, PipelineFlavour flavour) const
{
    IrMapping mapping;
    std::unique_ptr<Program> clone = origin.clone(&mapping);
    auto layer
        = std::make_unique<PartialProgramLayer>(std::move(clone), NestSequence(mapNode(inputs, mapping)),
            NestSequence(mapNode(outputs, mapping)), mapValues(parameters, mapping), flavour);
    if (trainLayout)
        layer->useTrainProgram(runnable(origin.clone(), flavour));
    return layer;
}

RunnableProgram ProgramRoles::runnable(std::unique_ptr<Program> program, PipelineFlavour flavour, bool *train)
{
    ProgramRoles roles = ofProgram(*program);
    if (train)
        *train = roles.trainLayout;
    const std::vector<Value> inputs = flatLeaves(roles.inputs);
    const std::vector<Value> outputs = flatLeaves(roles.outputs);
    std::vector<Value> params = roles.parameters;
    if (!roles.trainLayout) {
        appendShadowOutputs(*program, outputs, program->numOps(), "output_");
        return RunnableProgram::fromValues(
            std::move(program), inputs, params, outputs, {}, {}, {}, std::nullopt, std::nullopt, flavour);
    }
    std::vector<Value> xGrads, pGrads;
    size_t next = 0;
    auto match = [&roles, &next](const std::vector<Value> &values, std::vector<Value> &out) {
        for (const Value &v : values) {
            const bool take = next < roles.grads.size() && roles.grads[next].type() == v.type()
                && !explicitStopGradient(v).value_or(false);
            out.push_back(take ? roles.grads[next++] : Value());
        }
    };
    match(inputs, xGrads);
    match(params, pGrads);
    const size_t n = program->block().size();
    const OpRange forward { 0, roles.forwardEnd.value_or(0) };
    const OpRange backward { *roles.lastSeed + 1, roles.firstGrad.value_or(n) };
    return RunnableProgram::fromValues(
        std::move(program), inputs, params, outputs, xGrads, pGrads, roles.seeds, forward, backward, flavour);
}

} // namespace ps
