#include "core/ir/type.h"

#include <functional>
#include <memory>
#include <mutex>
#include <unordered_set>

namespace ps {

/// The interned payload of a Type. Immutable once interned; lives until process exit.
struct TypeStorage
{
    Type::Kind kind = Type::Kind::Null;
    DataType dtype = DataType::Undefined;
    std::vector<int64_t> dims;
    std::string layout;
    std::vector<std::vector<uint64_t>> lod;
    uint64_t offset = 0;
    std::vector<Type> elements;
    std::string text;

    bool operator==(const TypeStorage &o) const
    {
        return kind == o.kind && dtype == o.dtype && dims == o.dims && layout == o.layout && lod == o.lod
            && offset == o.offset && elements == o.elements && text == o.text;
    }
};

namespace {

void hashCombine(size_t &seed, size_t v)
{
    seed ^= v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

struct StorageHash
{
    size_t operator()(const std::unique_ptr<TypeStorage> &p) const { return hashOf(*p); }
    static size_t hashOf(const TypeStorage &s)
    {
        size_t h = size_t(s.kind) * 31 + size_t(s.dtype);
        for (int64_t d : s.dims)
            hashCombine(h, std::hash<int64_t>()(d));
        hashCombine(h, std::hash<std::string>()(s.layout));
        for (const auto &level : s.lod) {
            for (uint64_t x : level)
                hashCombine(h, std::hash<uint64_t>()(x));
            hashCombine(h, 0xabc);
        }
        hashCombine(h, s.offset);
        for (const Type &e : s.elements)
            hashCombine(h, std::hash<const void *>()(e.impl()));
        hashCombine(h, std::hash<std::string>()(s.text));
        return h;
    }
};

struct StorageEq
{
    bool operator()(const std::unique_ptr<TypeStorage> &a, const std::unique_ptr<TypeStorage> &b) const
    {
        return *a == *b;
    }
};

struct Interner
{
    std::mutex mutex;
    std::unordered_set<std::unique_ptr<TypeStorage>, StorageHash, StorageEq> set;
};

Interner &interner()
{
    static Interner *instance = new Interner; // never destroyed: Types may outlive static teardown
    return *instance;
}

const std::vector<int64_t> kNoDims;
const std::string kNoText;
const std::vector<std::vector<uint64_t>> kNoLod;
const std::vector<Type> kNoElements;

} // namespace

Type Type::intern(TypeStorage &&storage)
{
    Interner &in = interner();
    auto candidate = std::make_unique<TypeStorage>(std::move(storage));
    std::lock_guard lock(in.mutex);
    auto [it, inserted] = in.set.insert(std::move(candidate));
    return Type(it->get());
}

Type Type::null()
{
    return intern(TypeStorage {});
}

Type Type::element(DataType dtype)
{
    TypeStorage s;
    s.kind = Kind::Element;
    s.dtype = dtype;
    return intern(std::move(s));
}

static TypeStorage tensorStorage(Type::Kind kind, DataType dtype, std::vector<int64_t> dims,
    std::string layout, std::vector<std::vector<uint64_t>> lod, uint64_t offset)
{
    TypeStorage s;
    s.kind = kind;
    s.dtype = dtype;
    s.dims = std::move(dims);
    s.layout = std::move(layout);
    s.lod = std::move(lod);
    s.offset = offset;
    return s;
}

Type Type::denseTensor(DataType dtype, std::vector<int64_t> dims, std::string layout,
    std::vector<std::vector<uint64_t>> lod, uint64_t offset)
{
    return intern(
        tensorStorage(Kind::DenseTensor, dtype, std::move(dims), std::move(layout), std::move(lod), offset));
}

Type Type::selectedRows(DataType dtype, std::vector<int64_t> dims, std::string layout,
    std::vector<std::vector<uint64_t>> lod, uint64_t offset)
{
    return intern(
        tensorStorage(Kind::SelectedRows, dtype, std::move(dims), std::move(layout), std::move(lod), offset));
}

Type Type::denseTensorArray(DataType dtype, std::vector<int64_t> dims, std::string layout)
{
    return intern(tensorStorage(Kind::DenseTensorArray, dtype, std::move(dims), std::move(layout), {}, 0));
}

Type Type::vector(std::vector<Type> elements)
{
    TypeStorage s;
    s.kind = Kind::Vector;
    s.elements = std::move(elements);
    return intern(std::move(s));
}

Type Type::sparseCoo(DataType dtype, std::vector<int64_t> dims, std::string text)
{
    TypeStorage s = tensorStorage(Kind::SparseCoo, dtype, std::move(dims), {}, {}, 0);
    s.text = std::move(text);
    return intern(std::move(s));
}

Type Type::sparseCsr(DataType dtype, std::vector<int64_t> dims, std::string text)
{
    TypeStorage s = tensorStorage(Kind::SparseCsr, dtype, std::move(dims), {}, {}, 0);
    s.text = std::move(text);
    return intern(std::move(s));
}

Type Type::opaque(std::string text)
{
    TypeStorage s;
    s.kind = Kind::Opaque;
    s.text = std::move(text);
    return intern(std::move(s));
}

Type::Kind Type::kind() const
{
    return m_impl ? m_impl->kind : Kind::Null;
}

bool Type::isTensorLike() const
{
    const Kind k = kind();
    return k == Kind::DenseTensor || k == Kind::SelectedRows || k == Kind::SparseCoo || k == Kind::SparseCsr;
}

DataType Type::dtype() const
{
    return m_impl ? m_impl->dtype : DataType::Undefined;
}

const std::vector<int64_t> &Type::dims() const
{
    return m_impl ? m_impl->dims : kNoDims;
}

const std::string &Type::layout() const
{
    return m_impl ? m_impl->layout : kNoText;
}

const std::vector<std::vector<uint64_t>> &Type::lod() const
{
    return m_impl ? m_impl->lod : kNoLod;
}

uint64_t Type::offset() const
{
    return m_impl ? m_impl->offset : 0;
}

const std::vector<Type> &Type::elements() const
{
    return m_impl ? m_impl->elements : kNoElements;
}

const std::string &Type::text() const
{
    return m_impl ? m_impl->text : kNoText;
}

int64_t Type::numElements() const
{
    if (!isTensorLike())
        return -1;
    int64_t n = 1;
    for (int64_t d : dims()) {
        if (d < 0 || __builtin_mul_overflow(n, d, &n))
            return -1; // dynamic, or more elements than int64 counts: no static size
    }
    return n;
}

int64_t Type::byteSize() const
{
    const int64_t n = numElements();
    int64_t bytes = 0;
    if (n < 0 || __builtin_mul_overflow(n, int64_t(ps::byteSize(dtype())), &bytes))
        return -1;
    return bytes;
}

} // namespace ps
