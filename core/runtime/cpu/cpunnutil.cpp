#include "core/runtime/cpu/cpunnutil.h"

#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"

#include <cstdint>

namespace ps {

Tensor convertTensor(const Tensor &t, DataType dtype)
{
    if (t.dtype() == dtype)
        return t;
    Tensor out = Tensor::empty(t.shape(), dtype);
    const int64_t n = t.numElements();
    dispatchDtype(t.dtype(), "convert", [&](auto src) {
        using S = decltype(src);
        const S *in = t.data<S>();
        dispatchDtype(dtype, "convert", [&](auto dst) {
            using D = decltype(dst);
            D *o = out.data<D>();
            for (int64_t i = 0; i < n; ++i)
                o[i] = convertElement<D>(in[i]);
        });
    });
    return out;
}

Tensor permuteChannels(const Tensor &t, bool toChannelsFirst)
{
    if (t.rank() != 4)
        throw RuntimeError("layout change needs a 4-D tensor, got " + t.describe());
    const int64_t n = t.dim(0);
    // Source seen as [N, A, B] with A, B swapped in the result: NHWC -> NCHW swaps (H*W, C).
    const int64_t a = toChannelsFirst ? t.dim(1) * t.dim(2) : t.dim(1);
    const int64_t b = toChannelsFirst ? t.dim(3) : t.dim(2) * t.dim(3);
    std::vector<int64_t> shape = toChannelsFirst ? std::vector<int64_t> { n, t.dim(3), t.dim(1), t.dim(2) }
                                                 : std::vector<int64_t> { n, t.dim(2), t.dim(3), t.dim(1) };
    Tensor out = Tensor::empty(shape, t.dtype());
    auto copy = [&](auto tag) {
        using E = decltype(tag);
        const E *src = static_cast<const E *>(t.rawData());
        E *dst = static_cast<E *>(out.rawData());
        for (int64_t i = 0; i < n; ++i)
            for (int64_t x = 0; x < a; ++x)
                for (int64_t y = 0; y < b; ++y)
                    dst[(i * b + y) * a + x] = src[(i * a + x) * b + y];
    };
    switch (t.elementSize()) {
    case 1:
        copy(uint8_t {});
        break;
    case 2:
        copy(uint16_t {});
        break;
    case 4:
        copy(uint32_t {});
        break;
    case 8:
        copy(uint64_t {});
        break;
    default:
        throw RuntimeError("layout change: unsupported element size " + std::to_string(t.elementSize()));
    }
    return out;
}

DataType convComputeType(const std::string &label, const Tensor &input, const Tensor &filter)
{
    if (input.dtype() != filter.dtype())
        throw RuntimeError(label + ": input " + input.describe() + " and filter " + filter.describe()
            + " have different dtypes");
    const DataType dtype = input.dtype();
    if (dtype != DataType::Float32 && dtype != DataType::Float64 && !kernels::isHalfType(dtype))
        throw RuntimeError(label + ": expects a floating-point input, got " + input.describe());
    return dtype == DataType::Float64 ? DataType::Float64 : DataType::Float32;
}

} // namespace ps
