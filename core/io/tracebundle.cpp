#include "core/io/tracebundle.h"

#include "core/io/programloader.h"
#include "core/io/tracebundlemanifest.h"
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

std::unique_ptr<TraceBundle> TraceBundle::open(const std::string &path, DiagnosticList &diagnostics)
{
    std::error_code ec;
    const fs::path p(path);
    const bool isDir = fs::is_directory(p, ec);
    const fs::path manifest = isDir ? p / "manifest.json" : p;
    if (isDir && !fs::exists(manifest, ec)) {
        diagnostics.error(
            SourceLocation { path, 0, 0, {}, -1 }, "not a trace bundle: the folder has no manifest.json");
        return nullptr;
    }
    std::unique_ptr<TraceBundle> bundle(new TraceBundle);
    bundle->m_manifest = manifest.string();
    bundle->m_dir = manifest.parent_path().empty() ? std::string(".") : manifest.parent_path().string();
    if (!TraceBundleManifest::read(bundle->m_manifest, *bundle, diagnostics))
        return nullptr;
    return bundle;
}

bool TraceBundle::isBundlePath(const std::string &path)
{
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec))
        return fs::is_regular_file(p / "manifest.json", ec);
    return p.filename() == "manifest.json";
}

std::string TraceBundle::filePath(const std::string &relative) const
{
    return relative.empty() ? std::string() : (fs::path(m_dir) / relative).string();
}

LoadResult TraceBundle::loadOrigin(ProgramSource source) const
{
    const std::string json = filePath("program.json");
    const std::string text = filePath("program.txt");
    std::error_code ec;
    if (source == ProgramSource::Json || (source == ProgramSource::Auto && fs::exists(json, ec))) {
        LoadResult r = loadProgram(json);
        if (r.ok() || source == ProgramSource::Json || !fs::exists(text, ec))
            return r;
        const Diagnostic *first = r.diagnostics.firstError();
        LoadResult t = loadProgram(text);
        t.diagnostics.warning(SourceLocation { json, 0, 0, {}, -1 },
            "does not load (" + (first ? first->message : std::string("no program"))
                + "); program.txt is used instead");
        return t;
    }
    return loadProgram(text);
}

std::optional<ProgramRoles> TraceBundle::roles(
    const Program &origin, const std::string &originFile, DiagnosticList &diagnostics) const
{
    bool ok = true;
    auto error = [&](const std::string &jsonPath, const std::string &message) {
        diagnostics.error(SourceLocation { m_manifest, 0, 0, jsonPath, -1 }, message);
        ok = false;
    };
    const std::string program = fs::path(originFile).filename().string();
    ProgramRoles roles;
    for (size_t i = 0; i < m_inputs.size(); ++i) {
        const std::optional<Value> v = inputByName(origin, "pd_op.data", "name", m_inputs[i].name);
        if (!v)
            error(jsonIndex("inputs", i, "name"),
                "no pd_op.data named '" + m_inputs[i].name + "' in " + program);
        roles.inputs.items.push_back(NestNode::leaf(v.value_or(Value())));
    }
    const bool fromTrainNames = m_trainNames.has_value();
    std::vector<std::string> params;
    if (fromTrainNames)
        params = m_trainNames->param;
    else
        for (const Tensor &p : m_parameters)
            params.push_back(p.name);
    for (size_t i = 0; i < params.size(); ++i) {
        const std::optional<Value> v = inputByName(origin, "builtin.parameter", "parameter_name", params[i]);
        if (!v)
            error(fromTrainNames ? "train_names.param[" + std::to_string(i) + "]"
                                 : jsonIndex("parameters", i, "name"),
                "no builtin.parameter named '" + params[i] + "' in " + program);
        roles.parameters.push_back(v.value_or(Value()));
    }
    std::vector<Value> leaves;
    for (size_t i = 0; i < m_outputs.size(); ++i) {
        const Output &o = m_outputs[i];
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
    std::function<NestNode(const OutputNode &)> build = [&](const OutputNode &node) -> NestNode {
        switch (node.kind) {
        case OutputNode::Kind::Tensor:
            return NestNode::leaf(node.index < leaves.size() ? leaves[node.index] : Value());
        case OutputNode::Kind::Constant:
            return NestNode::constantLeaf(node.constant);
        case OutputNode::Kind::Dict: {
            std::vector<std::pair<std::string, NestNode>> entries;
            for (size_t k = 0; k < node.items.size(); ++k)
                entries.emplace_back(
                    k < node.keys.size() ? node.keys[k] : std::string(), build(node.items[k]));
            return NestNode::dict(std::move(entries));
        }
        case OutputNode::Kind::List:
        case OutputNode::Kind::Tuple: {
            std::vector<NestNode> items;
            for (const OutputNode &item : node.items)
                items.push_back(build(item));
            return node.kind == OutputNode::Kind::Tuple ? NestNode::tuple(std::move(items))
                                                        : NestNode::list(std::move(items));
        }
        }
        return NestNode::list({});
    };
    roles.outputs = build(m_outputStructure);
    if (!ok)
        return std::nullopt;
    return roles;
}

std::unique_ptr<PartialProgramLayer> TraceBundle::makeLayer(
    DiagnosticList &diagnostics, std::optional<PipelineFlavour> flavour, ProgramSource source) const
{
    LoadResult loaded = loadOrigin(source);
    diagnostics.append(loaded.diagnostics);
    if (!loaded.ok())
        return nullptr;
    const std::string file = source == ProgramSource::Text || loaded.format == LoadResult::Format::PirText
        ? filePath("program.txt")
        : filePath("program.json");
    std::optional<ProgramRoles> r = roles(*loaded.program, file, diagnostics);
    if (!r)
        return nullptr;
    return std::make_unique<PartialProgramLayer>(std::move(loaded.program),
        NestSequence(std::move(r->inputs)), NestSequence(std::move(r->outputs)), std::move(r->parameters),
        flavour.value_or(m_flavour));
}

RunnableProgram TraceBundle::paddleTrainProgram(std::unique_ptr<Program> whole, PipelineFlavour flavour) const
{
    RunnableProgram::Names names = m_trainNames.value_or(RunnableProgram::Names {});
    // The manifest spells the fake value as its Paddle did; another flavour has its own spelling.
    const std::string fake(ps::fakeValueName(flavour));
    for (auto *list : { &names.x, &names.param, &names.out, &names.xGrad, &names.paramGrad, &names.outGrad })
        for (std::string &name : *list)
            if (name == m_fakeValueName)
                name = fake;
    return RunnableProgram(std::move(whole), std::move(names), m_forwardRange, m_backwardRange, flavour);
}

std::optional<RunnableProgram> TraceBundle::paddleTrainProgram(
    DiagnosticList &diagnostics, std::optional<PipelineFlavour> flavour) const
{
    const std::string path = filePath("train_program.txt");
    if (!m_trainNames) {
        diagnostics.error(SourceLocation { m_manifest, 0, 0, "train_names", -1 },
            "missing: the bundle has no train program (made in eval mode?)");
        return std::nullopt;
    }
    LoadResult loaded = loadProgram(path);
    diagnostics.append(loaded.diagnostics);
    if (!loaded.ok())
        return std::nullopt;
    return paddleTrainProgram(std::move(loaded.program), flavour.value_or(m_flavour));
}

} // namespace ps
