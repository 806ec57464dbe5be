#pragma once

#include "core/ir/datatype.h"
#include "core/ir/place.h"
#include "core/ir/type.h"

#include <atomic>
#include <bit>
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
/// Value semantics. An attribute is immutable: strings, arrays, IntArrays, places and complex
/// numbers live in one reference-counted payload that copies share, so copying an attribute
/// costs a counter increment, never an allocation (the readers hand out one payload per distinct
/// value of a document). 24 bytes; scalars, dtypes and types are held inline.
/// An accessor of another kind's payload throws std::bad_variant_access.
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
    Attribute(const Attribute &o) noexcept
        : m_kind(o.m_kind)
        , m_dtype(o.m_dtype)
        , m_scalar(o.m_scalar)
        , m_payload(o.m_payload)
    {
        if (m_payload)
            m_payload->retain();
    }
    /// Leaves `o` Null.
    Attribute(Attribute &&o) noexcept
        : m_kind(o.m_kind)
        , m_dtype(o.m_dtype)
        , m_scalar(o.m_scalar)
        , m_payload(o.m_payload)
    {
        o.m_kind = Kind::Null;
        o.m_dtype = DataType::Undefined;
        o.m_payload = nullptr;
    }
    Attribute &operator=(const Attribute &o) noexcept
    {
        Attribute copy(o);
        swap(copy);
        return *this;
    }
    Attribute &operator=(Attribute &&o) noexcept
    {
        Attribute moved(std::move(o));
        swap(moved);
        return *this;
    }
    ~Attribute()
    {
        if (m_payload)
            m_payload->release();
    }

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

    bool asBool() const { return m_kind == Kind::Bool ? m_scalar.b : throwWrongKind<bool>(); }
    /// Int32/Int64/Index as int64; Bool as 0/1.
    int64_t asInt() const;
    /// Float/Double/Scalar as double; integers converted.
    double asDouble() const;
    /// String, TensorName, DataLayout, Unknown text.
    const std::string &asString() const { return payload<TextPayload>().text; }
    const std::vector<Attribute> &asArray() const { return payload<ArrayPayload>().items; }
    const std::vector<int64_t> &asIntArray() const { return payload<IntArrayPayload>().values; }
    Type asType() const
    {
        return m_kind == Kind::TypeAttr ? std::bit_cast<Type>(m_scalar.type) : throwWrongKind<Type>();
    }
    std::complex<double> asComplex() const { return payload<ComplexPayload>().value; }
    DataType asDataType() const { return m_dtype; }
    const Place &asPlace() const { return payload<PlacePayload>().place; }
    /// Unknown: the kind id given to unknown(); every other kind: empty.
    const std::string &unknownKindId() const;

    bool isInteger() const { return m_kind == Kind::Int32 || m_kind == Kind::Int64 || m_kind == Kind::Index; }
    bool isFloating() const { return m_kind == Kind::Float || m_kind == Kind::Double; }

    /// Structural equality (floats compare bitwise, so NaN == NaN).
    bool operator==(const Attribute &o) const;
    bool operator!=(const Attribute &o) const { return !(*this == o); }

    void swap(Attribute &o) noexcept
    {
        std::swap(m_kind, o.m_kind);
        std::swap(m_dtype, o.m_dtype);
        std::swap(m_scalar, o.m_scalar);
        std::swap(m_payload, o.m_payload);
    }

private:
    /// The shared, immutable part of a String/Array/IntArray/Place/Complex attribute. The count
    /// is atomic: programs (and so their attributes) move between threads.
    struct Payload
    {
        enum class Form : unsigned char { Text, Array, IntArray, Place, Complex };
        Payload(Form f)
            : form(f)
        {
        }
        void retain() { refs.fetch_add(1, std::memory_order_relaxed); }
        void release()
        {
            if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
                destroy(this);
        }
        std::atomic<uint32_t> refs { 1 };
        Form form;
    };
    struct TextPayload : Payload
    {
        static constexpr Form kForm = Form::Text;
        std::string text;
        std::string kindId; ///< Unknown only
    };
    struct ArrayPayload : Payload
    {
        static constexpr Form kForm = Form::Array;
        std::vector<Attribute> items;
    };
    struct IntArrayPayload : Payload
    {
        static constexpr Form kForm = Form::IntArray;
        std::vector<int64_t> values;
    };
    struct PlacePayload : Payload
    {
        static constexpr Form kForm = Form::Place;
        Place place;
    };
    struct ComplexPayload : Payload
    {
        static constexpr Form kForm = Form::Complex;
        std::complex<double> value;
    };
    static void destroy(Payload *p);
    template<class P> static Attribute withPayload(Kind kind, P *p)
    {
        Attribute a;
        a.m_kind = kind;
        a.m_payload = p;
        return a;
    }
    template<class P> const P &payload() const
    {
        if (!m_payload || m_payload->form != P::kForm) [[unlikely]]
            throwWrongKind<int>();
        return *static_cast<const P *>(m_payload);
    }
    template<class T> [[noreturn]] static T throwWrongKind() { throw std::bad_variant_access(); }

    Kind m_kind = Kind::Null;
    DataType m_dtype = DataType::Undefined;
    union Scalar {
        bool b;
        int64_t i;
        double d;
        const void *type; ///< a Type's bits (Type is one pointer)
    } m_scalar { .i = 0 };
    Payload *m_payload = nullptr;
};

/// An attribute with its name, as stored on an Operation (in insertion order).
struct NamedAttribute
{
    std::string name;
    Attribute value;
    bool operator==(const NamedAttribute &) const = default;
};

} // namespace ps
