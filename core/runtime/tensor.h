#pragma once

#include "core/ir/datatype.h"
#include "core/runtime/device.h"
#include "core/runtime/storage.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ps {

class Allocator;
class TensorLayout;

/// A dense, contiguous, row-major tensor: shape + dtype + a byte offset into a shared Storage.
/// Copying a Tensor copies the handle, not the bytes (like phi::DenseTensor). A default Tensor is
/// undefined (no storage); a 0-d tensor has an empty shape and one element.
///
/// A tensor may instead carry a kernel library's own layout (TensorLayout): only the kernels
/// that accept it read its bytes (layoutData()); rawData() and data() refuse it, and plain()
/// gives the dense row-major tensor everything else reads.
class Tensor
{
public:
    Tensor() = default;
    /// Allocates numElements * byteSize(dtype) bytes from `allocator`; contents uninitialised.
    /// Throws RuntimeError for a negative dim or a size past int64, OutOfMemory past the budget.
    Tensor(std::vector<int64_t> shape, DataType dtype, Allocator &allocator);
    /// A view of `storage` from `byteOffset` (no copy); the storage must be large enough.
    Tensor(
        std::shared_ptr<Storage> storage, std::vector<int64_t> shape, DataType dtype, size_t byteOffset = 0);

    /// Host tensors (cpuAllocator()).
    static Tensor empty(std::vector<int64_t> shape, DataType dtype);
    static Tensor zeros(std::vector<int64_t> shape, DataType dtype);
    /// A host float32/float64/int32/int64/bool... tensor holding `values` converted to `dtype`.
    static Tensor fromDoubles(std::vector<int64_t> shape, DataType dtype, std::span<const double> values);

    bool defined() const { return m_storage != nullptr; }
    const std::vector<int64_t> &shape() const { return m_shape; }
    int64_t dim(size_t i) const { return m_shape[i]; }
    size_t rank() const { return m_shape.size(); }
    int64_t numElements() const;
    DataType dtype() const { return m_dtype; }
    size_t elementSize() const { return ps::byteSize(m_dtype); }
    size_t byteSize() const { return size_t(numElements()) * elementSize(); }
    Device device() const;
    const std::shared_ptr<Storage> &storage() const { return m_storage; }
    size_t byteOffset() const { return m_byteOffset; }

    /// The dense row-major bytes; throws RuntimeError for a tensor with a layout().
    void *rawData();
    const void *rawData() const;

    /// nullptr: dense row-major.
    const std::shared_ptr<const TensorLayout> &layout() const { return m_layout; }
    bool hasLayout() const { return m_layout != nullptr; }
    /// The same storage and shape, its bytes laid out as `layout` says.
    Tensor withLayout(std::shared_ptr<const TensorLayout> layout) const;
    /// This tensor when it is dense row-major, else a dense row-major copy (TensorLayout::toPlain).
    Tensor plain() const;
    /// The bytes in whatever layout they are (the kernels that made the layout).
    void *layoutData();
    const void *layoutData() const;
    /// Typed host access; T must match the dtype's size (checked in debug builds only).
    template<class T> T *data() { return static_cast<T *>(rawData()); }
    template<class T> const T *data() const { return static_cast<const T *>(rawData()); }

    /// Same storage, new shape with the same element count; one -1 dim is inferred. Throws
    /// RuntimeError when the counts differ.
    Tensor reshaped(std::vector<int64_t> shape) const;
    /// A deep copy on the same device (host: memcpy; device: the backend copies); dense row-major.
    Tensor cloneHost() const;
    /// Host tensor: element i converted to double (any dtype, float16/bfloat16 included).
    double valueAsDouble(int64_t i) const;
    /// Host tensor: every element as double, row-major.
    std::vector<double> toDoubles() const;

    /// "float32[2, 3]".
    std::string describe() const;

private:
    std::shared_ptr<Storage> m_storage;
    std::vector<int64_t> m_shape;
    DataType m_dtype = DataType::Undefined;
    size_t m_byteOffset = 0;
    std::shared_ptr<const TensorLayout> m_layout;
};

/// "[2, 3]" (a long shape is cut: ShapeSize::shapeText).
std::string shapeText(const std::vector<int64_t> &shape);
/// Product of dims (1 for an empty shape; -1 dims keep their sign). Throws RuntimeError when the
/// product leaves int64 (ShapeSize::product).
int64_t numElementsOf(const std::vector<int64_t> &shape);
/// The bytes of a `dtype` tensor of `shape`; throws RuntimeError naming the shape when a dim is
/// negative or the size leaves int64 (ShapeSize::bytes).
size_t checkedByteSize(const std::vector<int64_t> &shape, DataType dtype);

} // namespace ps
