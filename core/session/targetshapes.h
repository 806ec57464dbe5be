#pragma once

#include "core/analysis/shapeinference.h"
#include "core/session/inputshapes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps {

class Program;
struct DebugTarget;

/// Concrete shapes of every value of what a debug session or `run` executes (DebugTarget), from
/// the input shapes the session resolved (InputShapes: chosen, the `.yml`, batch 1): the forward
/// (or the one program) by ShapeInference, and a train pipeline's backward with its keyword
/// arguments taking the shapes of the forward values they carry (the output gradients: their
/// outputs'). Values of other programs (the GUI's display program) are looked up by the caller.
/// Cost: O(ops) of the target's programs.
class TargetShapes
{
public:
    TargetShapes() = default;
    /// Infers the target's programs from `inputs` (resolved ones; unresolved inputs stay unknown
    /// with their reason).
    static TargetShapes infer(const DebugTarget &target, const std::vector<InputShape> &inputs);
    /// The dims of the resolved inputs of `shapes`, by name.
    static ShapeInference::InputDims dimsOf(const std::vector<InputShape> &shapes);

    /// nullptr for a value of none of the target's programs or not a tensor.
    const InferredShape *shape(Value v) const;
    std::optional<int64_t> bytes(Value v) const;
    /// Bytes of every value whose shape is known (MemoryModel's sizes for dynamic values).
    std::unordered_map<const ValueImpl *, int64_t> knownBytes() const;
    size_t tensorValues() const;
    size_t inferredValues() const;
    bool empty() const { return m_programs.empty(); }

private:
    std::vector<ShapeInference> m_programs;
};

} // namespace ps
