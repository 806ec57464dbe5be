#pragma once

#include "core/ir/value.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps {

class Block;
class Operation;
class Program;

/// The concrete shape inferred for one value, or why it stays unknown.
struct InferredShape
{
    /// Concrete dims (all >= 0) when known(); the declared dims otherwise.
    std::vector<int64_t> dims;
    /// Empty when known; else why: "input x has no shape", "pd_op.nonzero: the shape depends on
    /// the data of its input", "pd_op.foo has no shape rule".
    std::string whyUnknown;
    bool known() const { return whyUnknown.empty(); }
};

/// Concrete shapes of every tensor value of a program, computed from the shapes of its inputs as
/// Paddle's InferMeta functions compute them (same rules: broadcasting, matmul, convolution and
/// pooling windows, reshape with its shape operand, slices, reductions, interpolation, the grad
/// ops' outputs taking their forward inputs' shapes, ...). Integer tensors that carry shapes
/// (`full_int_array`, `full`, `shape64` and the slices, casts, stacks, concats and arithmetic on
/// them) have their contents propagated too, so a reshape to a computed shape is known.
///
/// Never guesses: an op without a rule keeps its declared type when that is fully static and is
/// unknown otherwise, with the reason; a value downstream of an unknown one carries the same
/// reason. A rule's result that disagrees with a static declared dim is counted (conflicts()) and
/// the declared dim is kept (it is what Paddle inferred when it built the program).
///
/// Cost: one pass over the ops (nested regions included), O(ops + operands + dims).
class ShapeInference
{
public:
    /// Input name (`pd_op.data` / `pd_op.feed` "name") → concrete dims.
    using InputDims = std::map<std::string, std::vector<int64_t>>;

    /// Infers every value of `program`. Inputs not in `inputs` keep their declared type (known
    /// when it is static). Extra dims for block arguments or kwargs (a backward program's
    /// keyword arguments, say) can be given in `arguments`.
    static ShapeInference run(const Program &program, const InputDims &inputs,
        const std::unordered_map<const ValueImpl *, std::vector<int64_t>> &arguments = {});

    /// The value's shape; nullptr for a value that is not a tensor (a vector, an opaque type) or
    /// was not visited.
    const InferredShape *shape(Value v) const;
    /// Its concrete size in bytes (dims × dtype size); nullopt when unknown or not a tensor.
    std::optional<int64_t> bytes(Value v) const;
    /// "" when known (or not a tensor); else why not.
    std::string whyUnknown(Value v) const;
    /// The integer contents propagated for a shape-like tensor (nullopt for others).
    std::optional<std::vector<int64_t>> integerData(Value v) const;
    /// Bytes of every tensor value whose shape is known (MemoryModel's `Measured` sizes).
    std::unordered_map<const ValueImpl *, int64_t> knownBytes() const;

    /// Dense tensor values visited, and how many of them got a concrete shape.
    size_t tensorValues() const { return m_tensorValues; }
    size_t inferredValues() const { return m_inferredValues; }
    /// Values whose rule disagreed with a static declared dim ("pd_op.foo: [2, 3] vs declared
    /// [2, 4]"), at most 20 kept.
    const std::vector<std::string> &conflicts() const { return m_conflicts; }
    size_t conflictCount() const { return m_conflictCount; }

    /// What is kept per value: a tensor's shape and, for small integer tensors, its contents;
    /// a vector value's elements. Public for the rules in shapeinferencerules.cpp.
    struct Info
    {
        bool visited = false;
        bool isVector = false;
        InferredShape shape;
        /// Element values (row-major) of a small tensor whose contents are known.
        std::optional<std::vector<double>> data;
        std::vector<Info> elements; ///< isVector
    };

private:
    void inferBlock(const Block &block);
    void inferOp(const Operation &op);
    void inferControlFlow(const Operation &op);
    void store(Value v, Info info);
    const Info &info(Value v) const;

    std::unordered_map<const ValueImpl *, Info> m_info;
    const InputDims *m_inputs = nullptr;
    size_t m_tensorValues = 0;
    size_t m_inferredValues = 0;
    std::vector<std::string> m_conflicts;
    size_t m_conflictCount = 0;
};

} // namespace ps
