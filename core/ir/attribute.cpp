#include "core/ir/attribute.h"

#include <cstring>

namespace ps {

Attribute Attribute::boolean(bool v)
{
    Attribute a;
    a.m_kind = Kind::Bool;
    a.m_value = v;
    return a;
}

Attribute Attribute::int32(int32_t v)
{
    Attribute a;
    a.m_kind = Kind::Int32;
    a.m_value = int64_t(v);
    return a;
}

Attribute Attribute::int64(int64_t v)
{
    Attribute a;
    a.m_kind = Kind::Int64;
    a.m_value = v;
    return a;
}

Attribute Attribute::index(int64_t v)
{
    Attribute a;
    a.m_kind = Kind::Index;
    a.m_value = v;
    return a;
}

Attribute Attribute::f32(float v)
{
    Attribute a;
    a.m_kind = Kind::Float;
    a.m_value = double(v);
    return a;
}

Attribute Attribute::f64(double v)
{
    Attribute a;
    a.m_kind = Kind::Double;
    a.m_value = v;
    return a;
}

Attribute Attribute::string(std::string v)
{
    Attribute a;
    a.m_kind = Kind::String;
    a.m_value = std::move(v);
    return a;
}

Attribute Attribute::tensorName(std::string v)
{
    Attribute a;
    a.m_kind = Kind::TensorName;
    a.m_value = std::move(v);
    return a;
}

Attribute Attribute::array(std::vector<Attribute> v)
{
    Attribute a;
    a.m_kind = Kind::Array;
    a.m_value = std::move(v);
    return a;
}

Attribute Attribute::type(Type t)
{
    Attribute a;
    a.m_kind = Kind::TypeAttr;
    a.m_value = t;
    return a;
}

Attribute Attribute::complex64(std::complex<double> v)
{
    Attribute a;
    a.m_kind = Kind::Complex64;
    a.m_value = v;
    return a;
}

Attribute Attribute::complex128(std::complex<double> v)
{
    Attribute a;
    a.m_kind = Kind::Complex128;
    a.m_value = v;
    return a;
}

Attribute Attribute::intArray(std::vector<int64_t> v)
{
    Attribute a;
    a.m_kind = Kind::IntArray;
    a.m_value = std::move(v);
    return a;
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
    Attribute a;
    a.m_kind = Kind::PlaceAttr;
    a.m_value = std::move(p);
    return a;
}

Attribute Attribute::dataLayout(std::string layout)
{
    Attribute a;
    a.m_kind = Kind::DataLayout;
    a.m_value = std::move(layout);
    return a;
}

Attribute Attribute::scalar(DataType dtype, double v)
{
    Attribute a;
    a.m_kind = Kind::Scalar;
    a.m_dtype = dtype;
    a.m_value = v;
    return a;
}

Attribute Attribute::unknown(std::string kindId, std::string text)
{
    Attribute a;
    a.m_kind = Kind::Unknown;
    a.m_value = std::move(text);
    a.m_extra = std::move(kindId);
    return a;
}

int64_t Attribute::asInt() const
{
    if (const auto *i = std::get_if<int64_t>(&m_value))
        return *i;
    if (const auto *b = std::get_if<bool>(&m_value))
        return *b ? 1 : 0;
    if (const auto *d = std::get_if<double>(&m_value))
        return int64_t(*d);
    return 0;
}

double Attribute::asDouble() const
{
    if (const auto *d = std::get_if<double>(&m_value))
        return *d;
    if (const auto *i = std::get_if<int64_t>(&m_value))
        return double(*i);
    if (const auto *b = std::get_if<bool>(&m_value))
        return *b ? 1.0 : 0.0;
    return 0.0;
}

bool Attribute::operator==(const Attribute &o) const
{
    if (m_kind != o.m_kind || m_dtype != o.m_dtype || m_extra != o.m_extra)
        return false;
    if (m_value.index() != o.m_value.index())
        return false;
    if (const auto *d = std::get_if<double>(&m_value)) {
        const double e = std::get<double>(o.m_value);
        return std::memcmp(d, &e, sizeof(double)) == 0 || *d == e;
    }
    return m_value == o.m_value;
}

} // namespace ps
