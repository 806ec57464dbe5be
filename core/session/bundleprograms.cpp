#include "core/session/bundleprograms.h"

#include "core/analysis/verifier.h"
#include "core/dialect/ops.h"
#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/partialprogram.h"

#include <filesystem>
#include <functional>

namespace ps {

namespace fs = std::filesystem;

namespace {

/// The top-level op defining `name` as Paddle's name analysis sees an input: a `pd_op.data`
/// `name` or a `builtin.parameter` `parameter_name`.
std::optional<Value> inputByName(
    const Program &program, std::string_view opName, const char *attribute, const std::string &name)
{
    for (const Operation *op : program.block().ops())
        if (op->name() == opName && op->stringAttribute(attribute) == name)
            return op->result(0);
    return std::nullopt;
}

std::string jsonIndex(const char *list, size_t i, const char *field)
{
    return std::string(list) + "[" + std::to_string(i) + "]" + (field[0] ? "." : "") + field;
}

} // namespace

std::optional<ProgramRoles> BundlePrograms::roles(const TraceBundle &bundle, const Program &origin,
    const std::string &originFile, DiagnosticList &diagnostics)
{
    bool ok = true;
    auto error = [&](const std::string &jsonPath, const std::string &message) {
        diagnostics.error(SourceLocation { bundle.manifestPath(), 0, 0, jsonPath, -1 }, message);
        ok = false;
    };
    const std::string program = fs::path(originFile).filename().string();
    ProgramRoles roles;
    for (size_t i = 0; i < bundle.inputs().size(); ++i) {
        const std::optional<Value> v = inputByName(origin, ops::kData, "name", bundle.inputs()[i].name);
        if (!v)
            error(jsonIndex("inputs", i, "name"),
                "no pd_op.data named '" + bundle.inputs()[i].name + "' in " + program);
        roles.inputs.items.push_back(NestNode::leaf(v.value_or(Value())));
    }
    const bool fromTrainNames = bundle.trainNames().has_value();
    std::vector<std::string> params;
    if (fromTrainNames)
        params = bundle.trainNames()->param;
    else
        for (const TraceBundle::Tensor &p : bundle.parameters())
            params.push_back(p.name);
    for (size_t i = 0; i < params.size(); ++i) {
        const std::optional<Value> v = inputByName(origin, ops::kParameter, "parameter_name", params[i]);
        if (!v)
            error(fromTrainNames ? "train_names.param[" + std::to_string(i) + "]"
                                 : jsonIndex("parameters", i, "name"),
                "no builtin.parameter named '" + params[i] + "' in " + program);
        roles.parameters.push_back(v.value_or(Value()));
    }
    std::vector<Value> leaves;
    for (size_t i = 0; i < bundle.outputs().size(); ++i) {
        const TraceBundle::Output &o = bundle.outputs()[i];
        const Block &block = origin.block();
        Value v;
        if (o.opIndex >= block.size()) {
            error(jsonIndex("outputs", i, "defined_by.op_index"),
                "op " + std::to_string(o.opIndex) + " is past the end of " + program + " ("
                    + std::to_string(block.size()) + " top-level ops)");
        } else if (const Operation *op = block.op(o.opIndex); !o.opName.empty() && op->name() != o.opName) {
            error(jsonIndex("outputs", i, "defined_by.op_name"),
                "'" + o.opName + "', but op " + std::to_string(o.opIndex) + " of " + program + " is '"
                    + std::string(op->name()) + "'");
        } else if (o.resultIndex >= op->numResults()) {
            error(jsonIndex("outputs", i, "defined_by.result_index"),
                "op " + std::to_string(o.opIndex) + " of " + program + " has "
                    + std::to_string(op->numResults()) + " results");
        } else {
            v = op->result(unsigned(o.resultIndex));
        }
        leaves.push_back(v);
    }
    std::function<NestNode(const TraceBundle::OutputNode &)> build
        = [&](const TraceBundle::OutputNode &node) -> NestNode {
        switch (node.kind) {
        case TraceBundle::OutputNode::Kind::Tensor:
            return NestNode::leaf(node.index < leaves.size() ? leaves[node.index] : Value());
        case TraceBundle::OutputNode::Kind::Constant:
            return NestNode::constantLeaf(node.constant);
        case TraceBundle::OutputNode::Kind::Dict: {
            std::vector<std::pair<std::string, NestNode>> entries;
            for (size_t k = 0; k < node.items.size(); ++k)
                entries.emplace_back(
                    k < node.keys.size() ? node.keys[k] : std::string(), build(node.items[k]));
            return NestNode::dict(std::move(entries));
        }
        case TraceBundle::OutputNode::Kind::List:
        case TraceBundle::OutputNode::Kind::Tuple: {
            std::vector<NestNode> items;
            for (const TraceBundle::OutputNode &item : node.items)
                items.push_back(build(item));
            return node.kind == TraceBundle::OutputNode::Kind::Tuple ? NestNode::tuple(std::move(items))
                                                                     : NestNode::list(std::move(items));
        }
        }
        return NestNode::list({});
    };
    roles.outputs = build(bundle.outputStructure());
    if (!ok)
        return std::nullopt;
    return roles;
}

std::unique_ptr<PartialProgramLayer> BundlePrograms::makeLayer(const TraceBundle &bundle,
    DiagnosticList &diagnostics, std::optional<PipelineFlavour> flavour, TraceBundle::ProgramSource source)
{
    LoadResult loaded = bundle.loadOrigin(source);
    diagnostics.append(loaded.diagnostics);
    if (!loaded.ok() || !verifyBeforeUse(*loaded.program, bundle.originFile(loaded), diagnostics))
        return nullptr;
    std::optional<ProgramRoles> r = roles(bundle, *loaded.program, bundle.originFile(loaded), diagnostics);
    if (!r)
        return nullptr;
    return std::make_unique<PartialProgramLayer>(std::move(loaded.program),
        NestSequence(std::move(r->inputs)), NestSequence(std::move(r->outputs)), std::move(r->parameters),
        flavour.value_or(bundle.flavour()));
}

RunnableProgram BundlePrograms::paddleTrainProgram(
    const TraceBundle &bundle, std::unique_ptr<Program> whole, PipelineFlavour flavour)
{
    const TraceBundle::TrainNames manifest = bundle.trainNames().value_or(TraceBundle::TrainNames {});
    RunnableProgram::Names names { manifest.x, manifest.param, manifest.out, manifest.xGrad,
        manifest.paramGrad, manifest.outGrad };
    // The manifest spells the fake value as its Paddle did; another flavour has its own spelling.
    const std::string fake(ps::fakeValueName(flavour));
    for (auto *list : { &names.x, &names.param, &names.out, &names.xGrad, &names.paramGrad, &names.outGrad })
        for (std::string &name : *list)
            if (name == bundle.fakeValueName())
                name = fake;
    return RunnableProgram(
        std::move(whole), std::move(names), bundle.forwardRange(), bundle.backwardRange(), flavour);
}

std::optional<RunnableProgram> BundlePrograms::paddleTrainProgram(
    const TraceBundle &bundle, DiagnosticList &diagnostics, std::optional<PipelineFlavour> flavour)
{
    const std::string path = bundle.filePath("train_program.txt");
    if (!bundle.trainNames()) {
        diagnostics.error(SourceLocation { bundle.manifestPath(), 0, 0, "train_names", -1 },
            "missing: the bundle has no train program (made in eval mode?)");
        return std::nullopt;
    }
    LoadResult loaded = loadProgram(path);
    diagnostics.append(loaded.diagnostics);
    if (!loaded.ok() || !verifyBeforeUse(*loaded.program, path, diagnostics))
        return std::nullopt;
    const size_t ops = loaded.program->block().size();
    bool inBounds = true;
    for (auto [range, key] : { std::pair { bundle.forwardRange(), "forward_range" },
             { bundle.backwardRange(), "backward_range" } }) {
        if (range && range->end > ops) {
            diagnostics.error(SourceLocation { bundle.manifestPath(), 0, 0, key, -1 },
                "[" + std::to_string(range->begin) + ", " + std::to_string(range->end)
                    + "] runs past the end of train_program.txt (" + std::to_string(ops) + " top-level ops)");
            inBounds = false;
        }
    }
    if (!inBounds)
        return std::nullopt;
    return paddleTrainProgram(bundle, std::move(loaded.program), flavour.value_or(bundle.flavour()));
}

} // namespace ps
