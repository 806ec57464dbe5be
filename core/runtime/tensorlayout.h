#pragma once

#include <string>

namespace ps {

class Tensor;

/// The layout of a tensor whose bytes are not dense row-major: a kernel library's own (oneDNN's
/// blocked nChw16c, core/runtime/onednn/onednnlayout.h), kept between the kernels that read it as
/// it is so that no reorder runs between them. Only those kernels ever see such a tensor: the
/// interpreter and KernelContext hand every other reader (plain kernels, the debugger, checks,
/// fetches, the scope) the plain tensor toPlain() makes, and Tensor::rawData() refuses one.
class TensorLayout
{
public:
    virtual ~TensorLayout() = default;
    /// A new dense row-major tensor of `t`'s shape and values (`t` carries this layout).
    virtual Tensor toPlain(const Tensor &t) const = 0;
    /// "oneDNN aBcd16b": for messages.
    virtual std::string name() const = 0;
};

} // namespace ps
