#include "core/ir/datatype.h"

#include <array>

namespace ps {

namespace {

struct DataTypeNames
{
    DataType type;
    std::string_view phi;
    std::string_view ir;
    std::string_view json;
    std::size_t bytes;
};

constexpr std::array<DataTypeNames, 20> kNames { {
    { DataType::Undefined, "Undefined", "undefined", "", 0 },
    { DataType::Bool, "bool", "b", "0.t_bool", 1 },
    { DataType::Int8, "int8", "i8", "0.t_i8", 1 },
    { DataType::UInt8, "uint8", "u8", "0.t_ui8", 1 },
    { DataType::Int16, "int16", "i16", "0.t_i16", 2 },
    { DataType::UInt16, "uint16", "u16", "0.t_ui16", 2 },
    { DataType::Int32, "int32", "i32", "0.t_i32", 4 },
    { DataType::UInt32, "uint32", "u32", "0.t_ui32", 4 },
    { DataType::Int64, "int64", "i64", "0.t_i64", 8 },
    { DataType::UInt64, "uint64", "u64", "0.t_ui64", 8 },
    { DataType::Float8E4M3FN, "float8_e4m3fn", "f8e4m3fn", "0.t_f8e4m3fn", 1 },
    { DataType::Float8E5M2, "float8_e5m2", "f8e5m2", "0.t_f8e5m2", 1 },
    { DataType::BFloat16, "bfloat16", "bf16", "0.t_bf16", 2 },
    { DataType::Float16, "float16", "f16", "0.t_f16", 2 },
    { DataType::Float32, "float32", "f32", "0.t_f32", 4 },
    { DataType::Float64, "float64", "f64", "0.t_f64", 8 },
    { DataType::Complex64, "complex64", "c64", "0.t_c64", 8 },
    { DataType::Complex128, "complex128", "c128", "0.t_c128", 16 },
    { DataType::PString, "pstring", "pstring", "", 0 },
    { DataType::Index, "index", "index", "0.t_index", 8 },
} };

const DataTypeNames &entry(DataType t)
{
    return kNames[static_cast<std::size_t>(t)];
}

} // namespace

std::string_view phiName(DataType t)
{
    return entry(t).phi;
}

std::string_view irName(DataType t)
{
    return entry(t).ir;
}

std::string_view jsonTypeId(DataType t)
{
    return entry(t).json;
}

std::size_t byteSize(DataType t)
{
    return entry(t).bytes;
}

std::optional<DataType> dataTypeFromPhiName(std::string_view s)
{
    for (const auto &e : kNames) {
        if (e.phi == s)
            return e.type;
    }
    if (s == "Undefined(ALL_DTYPE)" || s == "undefined" || s == "UNDEFINED")
        return DataType::Undefined;
    // Aliases seen in older prints and Python reprs.
    if (s == "float" || s == "fp32")
        return DataType::Float32;
    if (s == "double" || s == "fp64")
        return DataType::Float64;
    if (s == "half" || s == "fp16")
        return DataType::Float16;
    if (s == "bf16")
        return DataType::BFloat16;
    if (s == "int")
        return DataType::Int32;
    if (s == "long")
        return DataType::Int64;
    return std::nullopt;
}

std::optional<DataType> dataTypeFromIrName(std::string_view s)
{
    for (const auto &e : kNames) {
        if (e.ir == s)
            return e.type;
    }
    if (s == "ui8")
        return DataType::UInt8;
    if (s == "bool")
        return DataType::Bool;
    return std::nullopt;
}

std::optional<DataType> dataTypeFromJsonTypeId(std::string_view s)
{
    if (s.empty())
        return std::nullopt;
    for (const auto &e : kNames) {
        if (e.json == s)
            return e.type;
    }
    return std::nullopt;
}

} // namespace ps
