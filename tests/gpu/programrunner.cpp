#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/value.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"
#include "gpucheck.h"

#include <cmath>
#include <unordered_map>

namespace gpucheck {

std::string compareTensors(
    const ps::Tensor &got, const ps::Tensor &want, double rtol, double atol, double *maxError)
{
    if (got.shape() != want.shape())
        return "shape " + got.describe() + " vs expected " + want.describe();
    if (got.dtype() != want.dtype())
        return "dtype " + got.describe() + " vs expected " + want.describe();
    const bool exact = want.dtype() != ps::DataType::Float32 && want.dtype() != ps::DataType::Float64
        && want.dtype() != ps::DataType::Float16 && want.dtype() != ps::DataType::BFloat16;
    std::string first;
    for (int64_t i = 0; i < want.numElements(); ++i) {
        const double g = got.valueAsDouble(i), w = want.valueAsDouble(i);
        bool ok;
        if (exact)
            ok = g == w;
        else if (std::isnan(w))
            ok = std::isnan(g);
        else if (std::isinf(w))
            ok = g == w;
        else
            ok = std::abs(g - w) <= atol + rtol * std::abs(w);
        if (maxError && std::isfinite(g) && std::isfinite(w))
            *maxError = std::max(*maxError, std::abs(g - w));
        if (!ok && first.empty()) {
            char buf[160];
            std::snprintf(
                buf, sizeof buf, "element %lld: %.9g vs expected %.9g", static_cast<long long>(i), g, w);
            first = buf;
            if (!maxError)
                break;
        }
    }
    return first;
}

ProgramRun runProgram(const ps::Program &program, ps::Backend &backend,
    const std::map<std::string, ps::Tensor> &feeds, bool collect)
{
    ProgramRun run;
    std::unordered_map<ps::ValueImpl *, ps::RuntimeValue> values;
    const ps::Operation *current = nullptr;
    try {
        for (const ps::Operation *op : program.block().ops()) {
            current = op;
            const std::string_view name = op->name();
            if (name == "pd_op.data" || name == "builtin.parameter") {
                const std::string key = op->stringAttribute(name == "pd_op.data" ? "name" : "parameter_name");
                auto it = feeds.find(key);
                if (it == feeds.end()) {
                    run.error = "no value fed for '" + key + "'";
                    return run;
                }
                values[op->result(0).impl()] = backend.toDevice(it->second);
                continue;
            }
            if (name == "builtin.combine") {
                std::vector<ps::Tensor> list;
                for (unsigned i = 0; i < op->numOperands(); ++i)
                    list.push_back(values.at(op->operand(i).impl()).tensor());
                values[op->result(0).impl()] = ps::RuntimeValue(std::move(list));
                continue;
            }
            if (name == "builtin.split") {
                const std::vector<ps::Tensor> &list = values.at(op->operand(0).impl()).list();
                for (unsigned r = 0; r < op->numResults() && r < list.size(); ++r)
                    values[op->result(r).impl()] = list[r];
                continue;
            }
            if (name == "builtin.shadow_output" || name == "pd_op.fetch") {
                if (collect) {
                    const ps::RuntimeValue &v = values.at(op->operand(0).impl());
                    const std::string key
                        = op->stringAttribute(name == "pd_op.fetch" ? "name" : "output_name");
                    if (v.isTensor())
                        run.outputs[key] = backend.toHost(v.tensor());
                }
                continue;
            }
            ps::KernelFn kernel = backend.kernels().find(name);
            if (!kernel) {
                run.error
                    = std::string(backend.device().isCuda() ? "no CUDA kernel for " : "no CPU kernel for ")
                    + std::string(name);
                return run;
            }
            std::vector<const ps::RuntimeValue *> inputs;
            for (unsigned i = 0; i < op->numOperands(); ++i)
                inputs.push_back(op->operand(i) ? &values.at(op->operand(i).impl()) : nullptr);
            ps::KernelContext ctx(*op, std::move(inputs), backend);
            kernel(ctx);
            std::vector<ps::RuntimeValue> outs = ctx.takeOutputs();
            for (unsigned r = 0; r < op->numResults(); ++r)
                values[op->result(r).impl()] = std::move(outs[r]);
            ++run.ops;
            if (collect && op == program.block().ops().back())
                for (unsigned r = 0; r < op->numResults(); ++r) {
                    const ps::RuntimeValue &v = values[op->result(r).impl()];
                    run.lastResults.push_back(
                        v.isTensor() && v.tensor().defined() ? backend.toHost(v.tensor()) : ps::Tensor());
                    if (v.isList())
                        for (const ps::Tensor &t : v.list())
                            run.lastLists[r].push_back(t.defined() ? backend.toHost(t) : ps::Tensor());
                }
        }
        backend.synchronize();
    } catch (const std::exception &e) {
        run.error = std::string(current ? current->name() : std::string_view("program")) + ": " + e.what();
    }
    return run;
}

/// Deterministic uniform values in [-scale, scale).
ps::Tensor randomTensor(std::vector<int64_t> shape, uint64_t seed, double scale)
{
    ps::Tensor t = ps::Tensor::empty(std::move(shape), ps::DataType::Float32);
    float *p = t.data<float>();
    uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
    for (int64_t i = 0; i < t.numElements(); ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = float(scale * (double(s >> 11) * (2.0 / 9007199254740992.0) - 1.0));
    }
    return t;
}

std::string tensorType(const std::vector<int64_t> &shape)
{
    std::string s = "tensor<";
    for (int64_t d : shape)
        s += std::to_string(d) + "x";
    return s + "f32>";
}

std::string dataOp(int id, const std::string &name, const std::vector<int64_t> &shape)
{
    return "    (%" + std::to_string(id) + ") = \"pd_op.data\" () {dtype:float32,name:\"" + name
        + "\",place:Place(cpu),shape:" + ps::shapeText(shape) + ",stop_gradient:[true]} : () -> "
        + tensorType(shape) + "\n";
}

std::unique_ptr<ps::Program> parseProgram(const std::string &text)
{
    ps::LoadResult r = ps::PirTextReader::readString(text, "generated");
    return r.ok() ? std::move(r.program) : nullptr;
}

/// Runs the last op of `program` through its kernel `iterations` times on already-placed inputs;
/// returns the outputs of the last run.
std::vector<ps::RuntimeValue> runLastOp(const ps::Program &program, ps::Backend &backend,
    const std::vector<ps::RuntimeValue> &inputs, int iterations)
{
    const ps::Operation &op = *program.block().ops().back();
    const ps::KernelFn kernel = backend.kernels().find(op.name());
    std::vector<ps::RuntimeValue> outs;
    for (int i = 0; i < iterations; ++i) {
        std::vector<const ps::RuntimeValue *> in;
        for (const ps::RuntimeValue &v : inputs)
            in.push_back(&v);
        ps::KernelContext ctx(op, std::move(in), backend);
        kernel(ctx);
        outs = ctx.takeOutputs();
    }
    return outs;
}

} // namespace gpucheck
