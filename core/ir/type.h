#pragma once

#include "core/ir/datatype.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ps {

struct TypeStorage;

/// A PIR value type: an interned, immutable, pointer-sized handle.
///
/// Types are interned process-wide (thread-safe), so equality is pointer equality and a
/// Type can be shared freely between programs and threads. Interning costs one hash lookup
/// under a mutex; readers cache repeated type texts to avoid even that.
class Type
{
public:
    enum class Kind : unsigned char {
        Null, ///< `<<NULL TYPE>>`, JSON `{"#":"NULL"}`
        Element, ///< a bare element type used as a type (`f32`)
        DenseTensor,
        SelectedRows,
        DenseTensorArray,
        Vector,
        SparseCoo,
        SparseCsr,
        Opaque, ///< any other type, kept verbatim as text (e.g. `cf.stack`, dist types)
    };

    Type() = default;

    static Type null();
    static Type element(DataType dtype);
    /// layout e.g. "NCHW"; lod as list of levels; offset in elements.
    static Type denseTensor(DataType dtype, std::vector<int64_t> dims, std::string layout = "NCHW",
        std::vector<std::vector<uint64_t>> lod = {}, uint64_t offset = 0);
    static Type selectedRows(DataType dtype, std::vector<int64_t> dims, std::string layout = "NCHW",
        std::vector<std::vector<uint64_t>> lod = {}, uint64_t offset = 0);
    static Type denseTensorArray(DataType dtype, std::vector<int64_t> dims = {}, std::string layout = "NCHW");
    static Type vector(std::vector<Type> elements);
    static Type sparseCoo(DataType dtype, std::vector<int64_t> dims, std::string text);
    static Type sparseCsr(DataType dtype, std::vector<int64_t> dims, std::string text);
    /// `text` is the full spelling, e.g. "cf.stack" or "2.t_stack".
    static Type opaque(std::string text);

    bool isNull() const { return m_impl == nullptr || kind() == Kind::Null; }
    explicit operator bool() const { return !isNull(); }
    Kind kind() const;
    bool isTensorLike() const;

    DataType dtype() const;
    const std::vector<int64_t> &dims() const;
    const std::string &layout() const;
    const std::vector<std::vector<uint64_t>> &lod() const;
    uint64_t offset() const;
    const std::vector<Type> &elements() const;
    const std::string &text() const;

    /// Product of dims, or -1 when a dim is dynamic; 1 for 0-d tensors.
    int64_t numElements() const;
    /// numElements() * byteSize(dtype), or -1 when unknown.
    int64_t byteSize() const;

    bool operator==(const Type &o) const { return m_impl == o.m_impl; }
    bool operator!=(const Type &o) const { return m_impl != o.m_impl; }
    const TypeStorage *impl() const { return m_impl; }

private:
    explicit Type(const TypeStorage *impl)
        : m_impl(impl)
    {
    }
    static Type intern(TypeStorage &&storage);
    const TypeStorage *m_impl = nullptr;
};

} // namespace ps
