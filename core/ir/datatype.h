#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace ps {

/// The element type of a tensor, with Paddle's phi spellings.
enum class DataType : unsigned char {
    Undefined,
    Bool,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Float8E4M3FN,
    Float8E5M2,
    BFloat16,
    Float16,
    Float32,
    Float64,
    Complex64,
    Complex128,
    PString,
    Index, ///< builtin `index` element type (text `index`, JSON `0.t_index`)
};

/// phi spelling: "float32", "int64", "bool", ...; Undefined is "Undefined".
std::string_view phiName(DataType t);
/// IR short spelling inside tensor types: "f32", "i64", "b", ...
std::string_view irName(DataType t);
/// JSON type id: "0.t_f32", ...; empty for element types the JSON writer cannot express.
std::string_view jsonTypeId(DataType t);
/// Accepts phi spellings (also "Undefined(ALL_DTYPE)") and the Gen A/B/C aliases seen in prints.
std::optional<DataType> dataTypeFromPhiName(std::string_view s);
std::optional<DataType> dataTypeFromIrName(std::string_view s);
std::optional<DataType> dataTypeFromJsonTypeId(std::string_view s);
/// Size of one element in bytes; 0 for Undefined/PString.
std::size_t byteSize(DataType t);

} // namespace ps
