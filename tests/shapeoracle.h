#pragma once

// ShapeInference against its two oracles: a CPU run's runtime shapes (OpRecord::outputShapes),
// and a fully static program's declared types with every result's dims made dynamic.

#include "core/analysis/shapeinference.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/shapesize.h"
#include "core/runtime/backend.h"
#include "core/runtime/programrunner.h"

#include <memory>
#include <string>
#include <vector>

namespace shapeoracle {

struct Coverage
{
    size_t values = 0; ///< tensor results compared
    size_t inferred = 0; ///< of them with a known shape
    size_t mismatches = 0; ///< known but different from the oracle
    /// batch_norm's reserve_space: Paddle's InferMeta leaves it [-1] (cuDNN sizes it), so it stays
    /// unknown by design and is not compared.
    size_t kernelSized = 0;
    std::vector<std::string> problems; ///< the first mismatches and unknowns

    std::string summary() const
    {
        return std::to_string(inferred) + " of " + std::to_string(values) + " values inferred, "
            + std::to_string(mismatches) + " differ (" + std::to_string(kernelSized)
            + " reserve_space left to the kernel)";
    }
};

inline bool isReserveSpace(const ps::Operation &op, unsigned r)
{
    return (op.name() == "pd_op.batch_norm_" || op.name() == "pd_op.batch_norm") && r == 5;
}

inline void note(Coverage &c, const ps::Operation &op, unsigned r, const std::string &text)
{
    if (c.problems.size() < 12)
        c.problems.push_back(std::string(op.name()) + " result " + std::to_string(r) + ": " + text);
}

/// Runs `program` on the CPU with random inputs of `inputs` and compares every recorded result
/// with what ShapeInference infers from the same input shapes. `error` set when the run fails.
inline Coverage againstRun(std::shared_ptr<const ps::Program> program,
    const ps::ShapeInference::InputDims &inputs, std::string &error,
    const ps::TensorSource &source = ps::TensorSource::random(3))
{
    Coverage c;
    const ps::ShapeInference inferred = ps::ShapeInference::run(*program, inputs);
    auto backend = ps::createCpuBackend();
    ps::ProgramRunner runner(program, *backend);
    ps::ProgramRunner::Options options;
    options.inputs = source;
    options.params = ps::TensorSource::random(7);
    options.inputShapes = inputs;
    if (!runner.prepare(options, error))
        return c;
    runner.run();
    if (!runner.interpreter().finished()) {
        error = runner.interpreter().error() ? runner.interpreter().error()->message : "did not finish";
        return c;
    }
    for (const ps::OpRecord &rec : runner.interpreter().records()) {
        if (!rec.op)
            continue;
        for (unsigned r = 0; r < rec.op->numResults() && r < rec.outputShapes.size(); ++r) {
            if (r >= rec.outputDtypes.size() || rec.outputDtypes[r] == ps::DataType::Undefined)
                continue;
            const ps::Value v = rec.op->result(r);
            const ps::InferredShape *s = inferred.shape(v);
            if (!s)
                continue;
            if (isReserveSpace(*rec.op, r)) {
                ++c.kernelSized;
                continue;
            }
            ++c.values;
            if (!s->known()) {
                note(c, *rec.op, r, "unknown: " + s->whyUnknown);
                continue;
            }
            ++c.inferred;
            if (s->dims != rec.outputShapes[r]) {
                ++c.mismatches;
                note(c, *rec.op, r,
                    "inferred " + ps::ShapeSize::shapeText(s->dims) + ", the run "
                        + ps::ShapeSize::shapeText(rec.outputShapes[r]));
            }
        }
    }
    return c;
}

/// A clone of a program whose types are static, every op result's dims made dynamic (-1) except
/// the inputs' and parameters': what inference must restore. `inputs` receives the inputs' dims.
inline Coverage againstDeclared(const ps::Program &program)
{
    Coverage c;
    ps::IrMapping mapping;
    std::unique_ptr<ps::Program> copy = program.clone(&mapping);
    ps::ShapeInference::InputDims inputs;
    std::vector<std::pair<ps::Value, ps::Type>> original;
    std::vector<const ps::Operation *> originalOps;
    copy->block().walk([&](ps::Operation *op) {
        if (ps::ops::isData(*op) || ps::ops::isFeed(*op)) {
            if (op->numResults() == 1 && op->result(0).type().isTensorLike())
                inputs[op->stringAttribute("name")] = op->result(0).type().dims();
            return;
        }
        if (ps::ops::isParameter(*op) || ps::ops::isConstant(*op))
            return;
        for (unsigned r = 0; r < op->numResults(); ++r) {
            ps::Value v = op->result(r);
            const ps::Type t = v.type();
            if (!t || t.kind() != ps::Type::Kind::DenseTensor)
                continue;
            original.emplace_back(v, t);
            v.setType(
                ps::Type::denseTensor(t.dtype(), std::vector<int64_t>(t.dims().size(), -1), t.layout()));
        }
    });
    const ps::ShapeInference inferred = ps::ShapeInference::run(*copy, inputs);
    for (const auto &[v, t] : original) {
        if (isReserveSpace(*v.definingOp(), v.index())) {
            ++c.kernelSized;
            continue;
        }
        ++c.values;
        const ps::InferredShape *s = inferred.shape(v);
        if (!s || !s->known()) {
            note(c, *v.definingOp(), v.index(),
                "unknown: " + (s ? s->whyUnknown : std::string("not visited")));
            continue;
        }
        ++c.inferred;
        if (s->dims != t.dims()) {
            ++c.mismatches;
            note(c, *v.definingOp(), v.index(),
                "inferred " + ps::ShapeSize::shapeText(s->dims) + ", declared "
                    + ps::ShapeSize::shapeText(t.dims()));
        }
    }
    return c;
}

} // namespace shapeoracle
