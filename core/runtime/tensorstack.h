#pragma once

#include "core/runtime/tensor.h"

#include <cstddef>
#include <vector>

namespace ps {

/// The run-time object behind `cf.stack_create`'s three results (stack, inlet, outlet): a LIFO of
/// tuples of tensors. The forward pass of a `pd_op.if`/`pd_op.while` pushes (`cf.tuple_push`) the
/// values its grad op needs; the backward pass pops them (`cf.tuple_pop`) in reverse order.
/// Pushing stores tensor handles (no copy). Not thread-safe.
class TensorStack
{
public:
    void push(std::vector<Tensor> tuple) { m_items.push_back(std::move(tuple)); }
    /// The most recent tuple, removed; throws RuntimeError when empty.
    std::vector<Tensor> pop();
    bool empty() const { return m_items.empty(); }
    size_t size() const { return m_items.size(); }
    /// Item 0 is the oldest.
    const std::vector<Tensor> &at(size_t i) const { return m_items[i]; }
    void clear() { m_items.clear(); }

private:
    std::vector<std::vector<Tensor>> m_items;
};

} // namespace ps
