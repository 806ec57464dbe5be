#pragma once

// Shared by the tests of the oneDNN kernels against the plain ones (tst_onednnkernels,
// tst_onednnfusedkernels): one-op programs from PIR text, seeded inputs, both runs compared.

#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/tensor.h"
#include "kernelcase.h"

#ifdef PIRSCOPE_HAVE_DNNL
#    include "core/runtime/onednn/onednnengine.h"
#endif

#include <QtTest>
#include <memory>
#include <string>
#include <vector>

namespace onednncase {

using namespace ps;

struct Input
{
    std::vector<int64_t> shape;
    std::vector<int64_t> ints; ///< an int64 operand's values (kernel_size, ...); empty: random float32
};

inline std::string typeText(const std::vector<int64_t> &shape, const char *dtype)
{
    std::string t = "tensor<";
    for (int64_t d : shape)
        t += std::to_string(d) + "x";
    return t + dtype + ">";
}

/// A program of one data op per input (%0, %1, ...) and `op`, which reads them and writes `results`
/// results: `op` is the op's name, attributes and operand list as PIR text prints them.
inline std::string programText(
    const std::vector<Input> &inputs, const std::string &op, const std::string &attrs, int results)
{
    std::string text = "{\n";
    std::string operands, operandTypes;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const bool ints = !inputs[i].ints.empty();
        const std::string type = typeText(inputs[i].shape, ints ? "i64" : "f32");
        std::string shape;
        for (int64_t d : inputs[i].shape)
            shape += (shape.empty() ? "" : ",") + std::to_string(d);
        text += "    (%" + std::to_string(i) + ") = \"pd_op.data\" () {dtype:" + (ints ? "int64" : "float32")
            + ",name:\"in" + std::to_string(i) + "\",place:Place(cpu),shape:[" + shape
            + "],stop_gradient:[true]} : () -> " + type + "\n";
        operands += (i ? ", %" : "%") + std::to_string(i);
        operandTypes += (i ? ", " : "") + type;
    }
    std::string resultNames, resultTypes;
    for (int r = 0; r < results; ++r) {
        resultNames += (r ? ", %" : "%") + std::to_string(inputs.size() + size_t(r));
        resultTypes += std::string(r ? ", " : "") + "tensor<-1xf32>";
    }
    text += "    (" + resultNames + ") = \"" + op + "\" (" + operands + ") {" + attrs + "} : (" + operandTypes
        + ") -> " + resultTypes + "\n}\n";
    return text;
}

/// Seeded values in [-1, 1) (a counter hash, so each input differs).
inline Tensor randomTensor(const std::vector<int64_t> &shape, uint64_t seed)
{
    Tensor t = Tensor::empty(shape, DataType::Float32);
    float *p = t.data<float>();
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int64_t i = 0; i < t.numElements(); ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = float(double(x >> 11) / double(uint64_t(1) << 53) * 2.0 - 1.0);
    }
    return t;
}

/// Seeded values in [-scale, scale).
inline Tensor scaledTensor(const std::vector<int64_t> &shape, uint64_t seed, float scale)
{
    Tensor t = randomTensor(shape, seed);
    for (int64_t i = 0; i < t.numElements(); ++i)
        t.data<float>()[i] *= scale;
    return t;
}

/// A test program from PIR text; null when it does not read (the test then fails on it).
inline std::shared_ptr<const Program> programFromText(const std::string &text, const char *fileName)
{
    LoadResult loaded = PirTextReader::readString(text, fileName);
    if (!loaded.ok())
        return nullptr;
    return std::shared_ptr<const Program>(std::move(loaded.program));
}

inline std::vector<RuntimeValue> inputValues(const std::vector<Input> &inputs)
{
    std::vector<RuntimeValue> values;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].ints.empty()) {
            values.emplace_back(randomTensor(inputs[i].shape, i + 1));
        } else {
            std::vector<double> v(inputs[i].ints.begin(), inputs[i].ints.end());
            values.emplace_back(Tensor::fromDoubles(inputs[i].shape, DataType::Int64, v));
        }
    }
    return values;
}

inline std::vector<RuntimeValue> deepCopies(const std::vector<RuntimeValue> &values)
{
    std::vector<RuntimeValue> copies;
    for (const RuntimeValue &v : values)
        copies.emplace_back(v.tensor().cloneHost());
    return copies;
}

/// Runs the last op of `program` on `backend` with `operands`; QFAIL-style message on failure.
inline std::vector<RuntimeValue> runLastOp(
    const Program &program, const std::vector<RuntimeValue> &operands, Backend &backend, QString &error)
{
    const Operation *op = program.block().ops().back();
    std::string why;
    std::optional<std::vector<RuntimeValue>> out = KernelContext::runAlone(*op, operands, backend, why);
    if (!out) {
        error = QString::fromStdString(backend.name() + ": " + why);
        return {};
    }
    return *out;
}

/// Every tensor result of `a` equals `b`'s within rtol/atol (NaN matching NaN).
inline QString compareResults(
    const std::vector<RuntimeValue> &a, const std::vector<RuntimeValue> &b, double tol)
{
    if (a.size() != b.size())
        return QStringLiteral("%1 vs %2 results").arg(a.size()).arg(b.size());
    for (size_t r = 0; r < a.size(); ++r) {
        if (a[r].isList() && b[r].isList()) {
            if (a[r].list().size() != b[r].list().size())
                return QStringLiteral("result %1: lists of %2 and %3")
                    .arg(r)
                    .arg(a[r].list().size())
                    .arg(b[r].list().size());
            continue;
        }
        if (!a[r].isTensor() || !b[r].isTensor() || a[r].tensor().defined() != b[r].tensor().defined())
            return QStringLiteral("result %1: not both tensors").arg(r);
        if (!a[r].tensor().defined())
            continue;
        const QString mismatch = kernelcase::compareTensors(a[r].tensor(), b[r].tensor(), tol, tol);
        if (!mismatch.isEmpty())
            return QStringLiteral("result %1: %2").arg(r).arg(mismatch);
    }
    return {};
}

inline uint64_t oneDnnExecutions()
{
#ifdef PIRSCOPE_HAVE_DNNL
    return OneDnnEngine::instance().executions();
#else
    return 0;
#endif
}

} // namespace onednncase
