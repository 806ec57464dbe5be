#pragma once

#include "core/ir/datatype.h"
#include "core/ir/place.h"
#include "core/ir/type.h"

#include <complex>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace ps {

/// An op attribute value: the builtin kinds (bool, i32, i64, index, f32, f64, string,
/// tensor name, array, type, complex) and Paddle's (IntArray, DataType, Place, DataLayout,
/// Scalar). Anything else is kept verbatim as `Unknown` text so it still prints and round-trips.
///
/// Value semantics; copying an array copies its elements.
class Attribute
{
public:
    enum class Kind : unsigned char {
        Null,
        Bool,
        Int32,
        Int64,
        Index,
        Float,
        Double,
        String,
        TensorName,
        Array,
        TypeAttr,
        Complex64,
        Complex128,
        IntArray,
        DataTypeAttr,
        PlaceAttr,
        DataLayout,
        Scalar, ///< Paddle ScalarAttribute: a dtype name plus a double (kept as Double payload)
        Unknown, ///< verbatim text: an unknown JSON kind id plus its raw JSON, or unparsed text
    };

    Attribute() = default;

    static Attribute boolean(bool v);
    static Attribute int32(int32_t v);
    static Attribute int64(int64_t v);
    static Attribute index(int64_t v);
    static Attribute f32(float v);
    static Attribute f64(double v);
    static Attribute string(std::string v);
    static Attribute tensorName(std::string v);
    static Attribute array(std::vector<Attribute> v);
    static Attribute type(Type t);
    static Attribute complex64(std::complex<double> v);
    static Attribute complex128(std::complex<double> v);
    static Attribute intArray(std::vector<int64_t> v);
    static Attribute dataType(DataType t);
    static Attribute place(Place p);
    static Attribute dataLayout(std::string layout);
    static Attribute scalar(DataType dtype, double v);
    /// `kindId` names the unknown kind (e.g. JSON "4.a_process_mesh"), `text` its raw content.
    static Attribute unknown(std::string kindId, std::string text);

    Kind kind() const { return m_kind; }
    bool isNull() const { return m_kind == Kind::Null; }

    bool asBool() const { return std::get<bool>(m_value); }
    /// Int32/Int64/Index as int64; Bool as 0/1.
    int64_t asInt() const;
    /// Float/Double/Scalar as double; integers converted.
    double asDouble() const;
    /// String, TensorName, DataLayout, Unknown text.
    const std::string &asString() const { return std::get<std::string>(m_value); }
    const std::vector<Attribute> &asArray() const { return std::get<std::vector<Attribute>>(m_value); }
    const std::vector<int64_t> &asIntArray() const { return std::get<std::vector<int64_t>>(m_value); }
    Type asType() const { return std::get<Type>(m_value); }
    std::complex<double> asComplex() const { return std::get<std::complex<double>>(m_value); }
    DataType asDataType() const { return m_dtype; }
    const Place &asPlace() const { return std::get<Place>(m_value); }
    /// Unknown: the kind id given to unknown(); Scalar: empty.
    const std::string &unknownKindId() const { return m_extra; }

    bool isInteger() const { return m_kind == Kind::Int32 || m_kind == Kind::Int64 || m_kind == Kind::Index; }
    bool isFloating() const { return m_kind == Kind::Float || m_kind == Kind::Double; }

    /// Structural equality (floats compare bitwise, so NaN == NaN).
    bool operator==(const Attribute &o) const;
    bool operator!=(const Attribute &o) const { return !(*this == o); }

private:
    using Storage = std::variant<std::monostate, bool, int64_t, double, std::string, std::vector<Attribute>,
        std::vector<int64_t>, Type, std::complex<double>, Place>;
    Kind m_kind = Kind::Null;
    DataType m_dtype = DataType::Undefined;
    Storage m_value;
    std::string m_extra;
};

/// An attribute with its name, as stored on an Operation (in insertion order).
struct NamedAttribute
{
    std::string name;
    Attribute value;
    bool operator==(const NamedAttribute &) const = default;
};

} // namespace ps
