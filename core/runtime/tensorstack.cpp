#include "core/runtime/tensorstack.h"

#include "core/runtime/runtimeerror.h"

namespace ps {

std::vector<Tensor> TensorStack::pop()
{
    if (m_items.empty())
        throw RuntimeError("pop from an empty stack");
    std::vector<Tensor> top = std::move(m_items.back());
    m_items.pop_back();
    return top;
}

} // namespace ps
