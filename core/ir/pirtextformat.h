#pragma once

#include "core/ir/attribute.h"
#include "core/ir/type.h"

#include <string>
#include <string_view>

namespace ps {

class Operation;

/// The three generations of Paddle's PIR text print format (PADDLE_PIR.md §1):
/// A = 2023 (`pd_op.tensor<>`, `(Array)[..]`), B = 2024 (`builtin.tensor<>`, `(Int32)1`,
/// `(pd_op.DataType)float32`), C = 2025+ (`tensor<>`, no kind prefixes).
enum class Generation { A, B, C };

/// Spells types, attributes and numbers exactly as Paddle's printer does for a generation.
/// Appends to a std::string (no streams) because the printer's hot loop is built on it.
class PirTextFormat
{
public:
    /// How Paddle prints an op: the generic line (+ `{...}` per region block), IfOp/PyLayerOp's
    /// `-> types {` ... `} else {` form, or WhileOp's `(cond=.., inputs=..) {` + `^args` form.
    enum class OpForm { Generic, IfLike, While };
    static OpForm opForm(const Operation &op);

    static void appendType(std::string &out, Type t, Generation gen);
    static std::string typeText(Type t, Generation gen);
    static void appendAttribute(std::string &out, const Attribute &a, Generation gen);
    static std::string attributeText(const Attribute &a, Generation gen);
    /// `std::ostream << double` with default flags: 6 significant digits, `inf`, `nan`, `1e-05`.
    static void appendNumber(std::string &out, double v);
    /// `"text"` with `"` escaped as `\"` (the only escape Paddle's printer applies).
    static void appendQuoted(std::string &out, std::string_view s);
    static std::string_view generationName(Generation gen);
};

} // namespace ps
