#include "core/session/bundlereducer.h"

#include "core/analysis/valuenames.h"
#include "core/dialect/ops.h"
#include "core/io/jsonemitter.h"
#include "core/io/tracebundle.h"
#include "core/ir/attribute.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/place.h"
#include "core/ir/program.h"
#include "core/runtime/npyio.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <unordered_map>

namespace ps {

namespace {

/// A tensor of the reduced bundle's manifest: an input, or an output of result `result`.
struct ManifestTensor
{
    std::string name;
    std::string file;
    std::vector<int64_t> shape;
    DataType dtype = DataType::Float32;
    unsigned result = 0;
};

void writeTensor(JsonEmitter &json, const ManifestTensor &t)
{
    json.key("shape").beginArray();
    for (int64_t d : t.shape)
        json.value(d);
    json.endArray();
    json.key("dtype").value(phiName(t.dtype)).key("stop_gradient").value(true).key("file").value(t.file);
}

} // namespace

bool BundleReducer::reduce(const TraceBundle &bundle, const Program &program, size_t opIndex,
    const std::string &outDir, ReducedBundle &out, std::string &error)
{
    const std::vector<Operation *> &top = program.block().ops();
    if (opIndex >= top.size()) {
        error = "op " + std::to_string(opIndex) + " is past the program's " + std::to_string(top.size())
            + " ops";
        return false;
    }
    // Paddle's values: intermediates by (op, result), the bundle's inputs and parameters by name.
    std::unordered_map<const ValueImpl *, std::string> paddle;
    for (const TraceBundle::Intermediate &v : bundle.intermediates())
        if (v.opIndex < top.size() && v.resultIndex < top[v.opIndex]->numResults())
            paddle[top[v.opIndex]->result(unsigned(v.resultIndex)).impl()] = v.file;
    std::map<std::string, std::string> named;
    for (const auto *list : { &bundle.inputs(), &bundle.parameters() })
        for (const TraceBundle::Tensor &t : *list)
            named[t.name] = t.file;
    auto provided = [&](Value v) -> std::string {
        if (auto it = paddle.find(v.impl()); it != paddle.end())
            return it->second;
        if (std::optional<ValueName> n = ValueNames::inputName(v))
            if (auto it = named.find(n->name); it != named.end())
                return it->second;
        return {};
    };

    // Walk back from the op: ops to keep and the values Paddle feeds.
    const Operation *target = top[opIndex];
    std::set<size_t> keep { opIndex };
    std::vector<Value> leaves;
    std::set<const ValueImpl *> seen;
    std::vector<const Operation *> work { target };
    std::unordered_map<const Operation *, size_t> index;
    for (size_t i = 0; i < top.size(); ++i)
        index[top[i]] = i;
    while (!work.empty()) {
        const Operation *op = work.back();
        work.pop_back();
        if (op->numRegions() > 0) {
            error = std::string(op->name()) + " has regions: a subprogram with control flow is not reduced";
            return false;
        }
        for (unsigned i = 0; i < op->numOperands(); ++i) {
            const Value v = op->operand(i);
            if (!v || !seen.insert(v.impl()).second)
                continue;
            if (!provided(v).empty()) {
                leaves.push_back(v);
                continue;
            }
            const Operation *def = v.definingOp();
            auto at = def ? index.find(def) : index.end();
            if (at == index.end()) {
                error = "no Paddle value for operand " + std::to_string(i) + " of " + std::string(op->name())
                    + " and nothing in the top block computes it";
                return false;
            }
            if (keep.insert(at->second).second)
                work.push_back(def);
        }
    }

    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(fs::path(outDir) / "inputs", ec);
    fs::create_directories(fs::path(outDir) / "outputs", ec);
    if (ec) {
        error = outDir + ": " + ec.message();
        return false;
    }
    out = {};
    out.dir = outDir;
    out.opName = std::string(target->name());

    Program reduced;
    Builder builder(reduced);
    builder.setInsertionPointToEnd(reduced.block());
    IrMapping mapping;
    std::vector<ManifestTensor> inputs;
    for (size_t k = 0; k < leaves.size(); ++k) {
        const std::string name = "input_" + std::to_string(k);
        const std::string file = "inputs/" + name + ".npy";
        const Tensor value = NpyIO::read(bundle.filePath(provided(leaves[k])), error);
        if (!value.defined())
            return false;
        if (!NpyIO::write((fs::path(outDir) / file).string(), value, error))
            return false;
        const Operation *data
            = builder.create(ops::kData, {}, { Type::denseTensor(value.dtype(), value.shape()) },
                { { "name", Attribute::string(name) }, { "shape", Attribute::intArray(value.shape()) },
                    { "dtype", Attribute::dataType(value.dtype()) }, { "place", Attribute::place(Place {}) },
                    { "stop_gradient", Attribute::array({ Attribute::boolean(true) }) } });
        mapping.map(leaves[k], data->result(0));
        inputs.push_back({ name, file, value.shape(), value.dtype(), 0 });
        out.files.push_back(file);
    }
    size_t targetIndex = 0;
    for (size_t i : keep) {
        Operation *copy = top[i]->clone(reduced.arena(), mapping);
        reduced.block().push_back(copy);
        if (i == opIndex)
            targetIndex = reduced.block().ops().size() - 1;
    }
    out.ops = keep.size();
    out.inputs = leaves.size();

    std::vector<ManifestTensor> outputs;
    for (unsigned r = 0; r < target->numResults(); ++r) {
        auto it = paddle.find(target->result(r).impl());
        if (it == paddle.end())
            continue;
        const Tensor value = NpyIO::read(bundle.filePath(it->second), error);
        if (!value.defined())
            return false;
        const std::string file = "outputs/" + std::to_string(outputs.size()) + ".npy";
        if (!NpyIO::write((fs::path(outDir) / file).string(), value, error))
            return false;
        outputs.push_back({ {}, file, value.shape(), value.dtype(), r });
        out.files.push_back(file);
    }
    if (outputs.empty()) {
        error = "Paddle wrote no value of " + out.opName + "'s results: nothing to compare against";
        return false;
    }
    {
        std::ofstream text(fs::path(outDir) / "program.txt");
        text << PirPrinter::toString(reduced);
        if (!text) {
            error = outDir + "/program.txt: cannot be written";
            return false;
        }
    }
    std::ofstream manifest(fs::path(outDir) / "manifest.json");
    JsonEmitter json(manifest, JsonEmitter::Format::Report);
    json.beginObject();
    json.key("name").value("reduced_" + out.opName.substr(out.opName.find('.') + 1));
    json.key("description")
        .value(out.opName + " (op " + std::to_string(opIndex) + " of " + bundle.intermediatesProgram()
            + " in " + bundle.dir() + ") on Paddle's values of its inputs; outputs/ hold Paddle's results");
    json.key("paddle_version").value(bundle.paddleVersion());
    json.key("pipeline_flavour").value("newest").key("training").value(false).key("status").value("complete");
    json.key("errors").beginArray().endArray();
    json.key("inputs").beginArray();
    for (const ManifestTensor &t : inputs) {
        json.beginObject().key("name").value(t.name).key("argument").value(t.name);
        writeTensor(json, t);
        json.endObject();
    }
    json.endArray();
    json.key("parameters").beginArray().endArray();
    json.key("outputs").beginArray();
    for (size_t i = 0; i < outputs.size(); ++i) {
        json.beginObject().key("index").value(uint64_t(i));
        writeTensor(json, outputs[i]);
        json.key("defined_by").beginObject().key("op_index").value(uint64_t(targetIndex));
        json.key("result_index").value(uint64_t(outputs[i].result)).key("op_name").value(out.opName);
        json.endObject().endObject();
    }
    json.endArray();
    json.key("files")
        .beginObject()
        .key("manifest")
        .value("manifest.json")
        .key("program_txt")
        .value("program.txt");
    json.endObject().endObject();
    json.finish();
    if (!manifest) {
        error = outDir + "/manifest.json: cannot be written";
        return false;
    }
    out.files.insert(out.files.begin(), { "manifest.json", "program.txt" });
    return true;
}

} // namespace ps
