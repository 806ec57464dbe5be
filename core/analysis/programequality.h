#pragma once

#include <string>

namespace ps {

class Program;

/// Structural equality of two programs, modulo value identity: same ops in the same order
/// (names, result types, operands by position, regions, block arguments and kwargs, nested
/// recursively), where an operand matches when it refers to the corresponding value of the
/// other program (both null, or defined at the same place). Attributes are compared as a map
/// (Paddle's AttributeMap is unordered): same names with equal values (floats bitwise, so
/// NaN == NaN); kwargs by keyword. Program-level fields (serialization version, trainable)
/// are not compared. On a difference, `firstDifference` (when given) receives a description
/// such as `op 12 (pd_op.pool2d): attribute 'strides' differs: [(Int32)1,(Int32)1] vs
/// [(Int64)1,(Int64)1]`. O(ops + values + attributes^2 per op).
bool programsEqual(const Program &a, const Program &b, std::string *firstDifference = nullptr);

} // namespace ps
