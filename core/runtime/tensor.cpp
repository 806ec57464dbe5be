#include "core/runtime/tensor.h"

#include "core/ir/shapesize.h"
#include "core/runtime/allocator.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensorlayout.h"

#include <cstring>
#include <utility>

namespace ps {

int64_t numElementsOf(const std::vector<int64_t> &shape)
{
    if (const std::optional<int64_t> n = ShapeSize::product(shape))
        return *n;
    throw RuntimeError("the shape " + shapeText(shape) + " has more than 2^63 elements");
}

std::string shapeText(const std::vector<int64_t> &shape)
{
    return ShapeSize::shapeText(shape);
}

size_t checkedByteSize(const std::vector<int64_t> &shape, DataType dtype)
{
    if (const std::optional<uint64_t> bytes = ShapeSize::bytes(shape, dtype))
        return size_t(*bytes);
    throw RuntimeError("cannot allocate a tensor: " + ShapeSize::whyInvalid(shape, dtype));
}

Tensor::Tensor(std::vector<int64_t> shape, DataType dtype, Allocator &allocator)
    : m_shape(std::move(shape))
    , m_dtype(dtype)
{
    m_storage = std::make_shared<Storage>(allocator, checkedByteSize(m_shape, dtype));
}

Tensor::Tensor(
    std::shared_ptr<Storage> storage, std::vector<int64_t> shape, DataType dtype, size_t byteOffset)
    : m_storage(std::move(storage))
    , m_shape(std::move(shape))
    , m_dtype(dtype)
    , m_byteOffset(byteOffset)
{
    if (m_storage
        && (m_byteOffset > m_storage->bytes()
            || checkedByteSize(m_shape, dtype) > m_storage->bytes() - m_byteOffset))
        throw RuntimeError("a view of " + describe() + " at byte " + std::to_string(m_byteOffset)
            + " does not fit its storage of " + std::to_string(m_storage->bytes()) + " bytes");
}

Tensor Tensor::empty(std::vector<int64_t> shape, DataType dtype)
{
    return Tensor(std::move(shape), dtype, cpuAllocator());
}

Tensor Tensor::zeros(std::vector<int64_t> shape, DataType dtype)
{
    Tensor t = empty(std::move(shape), dtype);
    std::memset(t.rawData(), 0, t.byteSize());
    return t;
}

Tensor Tensor::fromDoubles(std::vector<int64_t> shape, DataType dtype, std::span<const double> values)
{
    Tensor t = empty(std::move(shape), dtype);
    if (size_t(t.numElements()) != values.size())
        throw RuntimeError("fromDoubles: " + std::to_string(values.size()) + " values for " + t.describe());
    dispatchDtype(dtype, "fromDoubles", [&](auto tag) {
        using T = decltype(tag);
        T *out = t.data<T>();
        for (size_t i = 0; i < values.size(); ++i)
            out[i] = convertElement<T>(values[i]);
    });
    return t;
}

int64_t Tensor::numElements() const
{
    return numElementsOf(m_shape);
}

Device Tensor::device() const
{
    return m_storage ? m_storage->device() : Device::cpu();
}

void *Tensor::rawData()
{
    if (m_layout) [[unlikely]]
        throw RuntimeError("a " + describe() + " in " + m_layout->name() + " read as dense row-major");
    return layoutData();
}

const void *Tensor::rawData() const
{
    if (m_layout) [[unlikely]]
        throw RuntimeError("a " + describe() + " in " + m_layout->name() + " read as dense row-major");
    return layoutData();
}

void *Tensor::layoutData()
{
    return m_storage ? static_cast<char *>(m_storage->data()) + m_byteOffset : nullptr;
}

const void *Tensor::layoutData() const
{
    return m_storage ? static_cast<const char *>(std::as_const(*m_storage).data()) + m_byteOffset : nullptr;
}

Tensor Tensor::withLayout(std::shared_ptr<const TensorLayout> layout) const
{
    Tensor t = *this;
    t.m_layout = std::move(layout);
    return t;
}

Tensor Tensor::plain() const
{
    return m_layout ? m_layout->toPlain(*this) : *this;
}

Tensor Tensor::reshaped(std::vector<int64_t> shape) const
{
    if (m_layout)
        return plain().reshaped(std::move(shape));
    int64_t known = 1;
    int inferred = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1 && inferred < 0)
            inferred = int(i);
        else if (__builtin_mul_overflow(known, shape[i], &known))
            throw RuntimeError("cannot reshape " + describe() + " to " + shapeText(shape));
    }
    if (inferred >= 0 && known != 0 && numElements() % known == 0)
        shape[size_t(inferred)] = numElements() / known;
    if (numElementsOf(shape) != numElements())
        throw RuntimeError("cannot reshape " + describe() + " to " + shapeText(shape));
    return Tensor(m_storage, std::move(shape), m_dtype, m_byteOffset);
}

Tensor Tensor::cloneHost() const
{
    if (!device().isCpu())
        throw RuntimeError("cloneHost on a " + device().name() + " tensor");
    if (m_layout)
        return plain();
    Tensor t = empty(m_shape, m_dtype);
    std::memcpy(t.rawData(), rawData(), byteSize());
    if (m_byteOffset == 0 && byteSize() == m_storage->bytes())
        t.storage()->adoptContentId(*m_storage);
    return t;
}

double Tensor::valueAsDouble(int64_t i) const
{
    return dispatchDtype(m_dtype, "valueAsDouble",
        [&](auto tag) -> double { return convertElement<double>(data<decltype(tag)>()[i]); });
}

std::vector<double> Tensor::toDoubles() const
{
    if (m_layout)
        return plain().toDoubles();
    std::vector<double> out(static_cast<size_t>(numElements()));
    dispatchDtype(m_dtype, "toDoubles", [&](auto tag) {
        const auto *p = data<decltype(tag)>();
        for (size_t i = 0; i < out.size(); ++i)
            out[i] = convertElement<double>(p[i]);
    });
    return out;
}

std::string Tensor::describe() const
{
    return std::string(phiName(m_dtype)) + shapeText(m_shape);
}

} // namespace ps
