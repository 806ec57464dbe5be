#pragma once

#include "core/ir/attribute.h"

#include <optional>
#include <string_view>

namespace ps {

/// Attribute values of generated grad ops, typed the way a PIR text reader types them from the op
/// YAML ("int" → Int32, "int64_t" → Int64, "float"/"Scalar" → Float, "double"/"Scalar(double)" →
/// Double, "int64_t[]" → Array of Int64, "IntArray" → IntArray, ...), so that a program built here
/// compares equal to the same program printed by Paddle and read back.
class GradAttributes
{
public:
    /// `value` converted to the kind `yamlType` implies (numbers and arrays of numbers); other
    /// kinds, and unknown YAML types, are returned unchanged.
    static Attribute coerce(const Attribute &value, std::string_view yamlType);

    /// The attribute a YAML default text stands for ("-1", "false", "1e-5f", "\"NCHW\"",
    /// "{1, 1}", "DataType::FLOAT32", "{}"), or nullopt when the text is empty or not understood.
    static std::optional<Attribute> fromYamlDefault(std::string_view text, std::string_view yamlType);
};

} // namespace ps
