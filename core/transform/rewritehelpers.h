#pragma once

#include "core/ir/attribute.h"
#include "core/ir/type.h"
#include "core/ir/value.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace ps {

class Operation;
class PatternRewriter;

// Small helpers shared by the rewrite patterns (Paddle's pir/utils/general_functions and the
// parts of op Build() that patterns rely on).

/// Creates an op at the rewriter's insertion point with `attributes` plus the `stop_gradient`
/// array Paddle's Build() gives every new op (PassStopGradientsDefaultly: true for all results
/// unless an operand carries an explicit false).
Operation *buildOp(PatternRewriter &rewriter, std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes);
Operation *buildOp(PatternRewriter &rewriter, std::string_view name, std::initializer_list<Value> operands,
    std::initializer_list<Type> resultTypes, std::vector<NamedAttribute> attributes = {});

/// Paddle's ReshapeOp::Build(x, shape): a `full_int_array` of the shape (int64, on the CPU),
/// then the reshape; returns the reshape's result.
Value buildReshape(PatternRewriter &rewriter, Value x, const std::vector<int64_t> &shape);
/// The CPU place Paddle's builders give `full` and `full_int_array`.
Place cpuPlace();

/// Paddle's ValueIsPersistable: the value is computed only from parameters, `pd_op.full` and
/// `pd_op.full_int_array` (recursively through any op). Block arguments and null values are not.
bool valueIsPersistable(Value value);

/// The op defining operand `index` of `op`, or nullptr.
Operation *definingOpOfOperand(const Operation &op, unsigned index);

/// True when `a` is a string attribute equal to one of `values`.
bool stringAttrIn(const Attribute *a, std::initializer_list<std::string_view> values);

/// True when every result of `op` is unused.
bool resultsUnused(const Operation &op);

/// An Array of Int32 (Paddle's `int[]` attributes: perm, strides, ...).
Attribute int32ArrayAttr(const std::vector<int64_t> &values);
/// An Array of Int64 (`int64_t[]`: full_int_array's value).
Attribute int64ArrayAttr(const std::vector<int64_t> &values);
/// Paddle's `stop_gradient` / `persistable` form: an Array of Bool.
Attribute boolArrayAttr(size_t count, bool value);

/// `type` with other dims or another element type (layout, lod and offset kept).
Type withDims(Type type, std::vector<int64_t> dims);
Type withDtype(Type type, DataType dtype);

/// Product of the dims (-1 dims multiply in as -1, as Paddle's shape arithmetic does).
int64_t dimsProduct(const std::vector<int64_t> &dims);
/// The `epsilon` of a batch_norm that Paddle's conv + batch-norm fusions fold (0 <= epsilon <=
/// 0.001, their constraint), else nullopt.
std::optional<float> foldableBatchNormEpsilon(const Operation &bn);

} // namespace ps
