#include "core/ir/attribute.h"

#include <cstring>

namespace ps {

void Attribute::destroy(Payload *p)
{
    switch (p->form) {
    case Payload::Form::Text:
        delete static_cast<TextPayload *>(p);
        break;
    case Payload::Form::Array:
        delete static_cast<ArrayPayload *>(p);
        break;
    case Payload::Form::IntArray:
        delete static_cast<IntArrayPayload *>(p);
        break;
    case Payload::Form::Place:
        delete static_cast<PlacePayload *>(p);
        break;
    case Payload::Form::Complex:
        delete static_cast<ComplexPayload *>(p);
        break;
    }
}

Attribute Attribute::boolean(bool v)
{
    Attribute a;
    a.m_kind = Kind::Bool;
    a.m_scalar.b = v;
    return a;
}

Attribute Attribute::int32(int32_t v)
{
    Attribute a;
    a.m_kind = Kind::Int32;
    a.m_scalar.i = v;
    return a;
}

Attribute Attribute::int64(int64_t v)
{
    Attribute a;
    a.m_kind = Kind::Int64;
    a.m_scalar.i = v;
    return a;
}

Attribute Attribute::index(int64_t v)
{
    Attribute a;
    a.m_kind = Kind::Index;
    a.m_scalar.i = v;
    return a;
}

Attribute Attribute::f32(float v)
{
    Attribute a;
    a.m_kind = Kind::Float;
    a.m_scalar.d = double(v);
    return a;
}

Attribute Attribute::f64(double v)
{
    Attribute a;
    a.m_kind = Kind::Double;
    a.m_scalar.d = v;
    return a;
}

Attribute Attribute::string(std::string v)
{
    auto *p = new TextPayload { { Payload::Form::Text }, std::move(v), {} };
    return withPayload(Kind::String, p);
}

Attribute Attribute::tensorName(std::string v)
{
    auto *p = new TextPayload { { Payload::Form::Text }, std::move(v), {} };
    return withPayload(Kind::TensorName, p);
}

Attribute Attribute::array(std::vector<Attribute> v)
{
    auto *p = new ArrayPayload { { Payload::Form::Array }, std::move(v) };
    return withPayload(Kind::Array, p);
}

Attribute Attribute::type(Type t)
{
    static_assert(sizeof(Type) == sizeof(const void *) && std::is_trivially_copyable_v<Type>);
    Attribute a;
    a.m_kind = Kind::TypeAttr;
    a.m_scalar.type = std::bit_cast<const void *>(t);
    return a;
}

Attribute Attribute::complex64(std::complex<double> v)
{
    auto *p = new ComplexPayload { { Payload::Form::Complex }, v };
    return withPayload(Kind::Complex64, p);
}

Attribute Attribute::complex128(std::complex<double> v)
{
    auto *p = new ComplexPayload { { Payload::Form::Complex }, v };
    return withPayload(Kind::Complex128, p);
}

Attribute Attribute::intArray(std::vector<int64_t> v)
{
    auto *p = new IntArrayPayload { { Payload::Form::IntArray }, std::move(v) };
    return withPayload(Kind::IntArray, p);
}

Attribute Attribute::dataType(DataType t)
{
    Attribute a;
    a.m_kind = Kind::DataTypeAttr;
    a.m_dtype = t;
    return a;
}

Attribute Attribute::place(Place p)
{
    auto *payload = new PlacePayload { { Payload::Form::Place }, std::move(p) };
    return withPayload(Kind::PlaceAttr, payload);
}

Attribute Attribute::dataLayout(std::string layout)
{
    auto *p = new TextPayload { { Payload::Form::Text }, std::move(layout), {} };
    return withPayload(Kind::DataLayout, p);
}

Attribute Attribute::scalar(DataType dtype, double v)
{
    Attribute a;
    a.m_kind = Kind::Scalar;
    a.m_dtype = dtype;
    a.m_scalar.d = v;
    return a;
}

Attribute Attribute::unknown(std::string kindId, std::string text)
{
    auto *p = new TextPayload { { Payload::Form::Text }, std::move(text), std::move(kindId) };
    return withPayload(Kind::Unknown, p);
}

const std::string &Attribute::unknownKindId() const
{
    static const std::string kNone;
    return m_kind == Kind::Unknown ? payload<TextPayload>().kindId : kNone;
}

int64_t Attribute::asInt() const
{
    switch (m_kind) {
    case Kind::Int32:
    case Kind::Int64:
    case Kind::Index:
        return m_scalar.i;
    case Kind::Bool:
        return m_scalar.b ? 1 : 0;
    case Kind::Float:
    case Kind::Double:
    case Kind::Scalar:
        return int64_t(m_scalar.d);
    default:
        return 0;
    }
}

double Attribute::asDouble() const
{
    switch (m_kind) {
    case Kind::Float:
    case Kind::Double:
    case Kind::Scalar:
        return m_scalar.d;
    case Kind::Int32:
    case Kind::Int64:
    case Kind::Index:
        return double(m_scalar.i);
    case Kind::Bool:
        return m_scalar.b ? 1.0 : 0.0;
    default:
        return 0.0;
    }
}

bool Attribute::operator==(const Attribute &o) const
{
    if (m_kind != o.m_kind || m_dtype != o.m_dtype)
        return false;
    if (m_payload && m_payload == o.m_payload)
        return true;
    switch (m_kind) {
    case Kind::Null:
    case Kind::DataTypeAttr:
        return true;
    case Kind::Bool:
        return m_scalar.b == o.m_scalar.b;
    case Kind::Int32:
    case Kind::Int64:
    case Kind::Index:
        return m_scalar.i == o.m_scalar.i;
    case Kind::Float:
    case Kind::Double:
    case Kind::Scalar:
        return std::memcmp(&m_scalar.d, &o.m_scalar.d, sizeof(double)) == 0 || m_scalar.d == o.m_scalar.d;
    case Kind::TypeAttr:
        return m_scalar.type == o.m_scalar.type;
    case Kind::String:
    case Kind::TensorName:
    case Kind::DataLayout:
    case Kind::Unknown: {
        const auto &a = payload<TextPayload>();
        const auto &b = o.payload<TextPayload>();
        return a.text == b.text && a.kindId == b.kindId;
    }
    case Kind::Array:
        return asArray() == o.asArray();
    case Kind::IntArray:
        return asIntArray() == o.asIntArray();
    case Kind::PlaceAttr:
        return asPlace() == o.asPlace();
    case Kind::Complex64:
    case Kind::Complex128:
        return asComplex() == o.asComplex();
    }
    return false;
}

} // namespace ps
