#pragma once

#include "core/runtime/tensor.h"

#include <memory>
#include <variant>
#include <vector>

namespace ps {

class TensorStack;

/// What one IR value holds at run time: nothing (a null/optional operand, or not computed yet),
/// a tensor (DenseTensor types), or a list of tensors (`builtin.combine` results, vector types,
/// DenseTensorArray), or a tensor stack (the `cf.stack`/`cf.inlet`/`cf.outlet` results of
/// `cf.stack_create`, shared). Cheap to copy (tensor handles).
class RuntimeValue
{
public:
    RuntimeValue() = default;
    RuntimeValue(Tensor t)
        : m_value(std::move(t))
    {
    }
    RuntimeValue(std::vector<Tensor> list)
        : m_value(std::move(list))
    {
    }
    RuntimeValue(std::shared_ptr<TensorStack> stack)
        : m_value(std::move(stack))
    {
    }

    bool isNull() const { return std::holds_alternative<std::monostate>(m_value); }
    bool isTensor() const { return std::holds_alternative<Tensor>(m_value); }
    bool isList() const { return std::holds_alternative<std::vector<Tensor>>(m_value); }
    bool isStack() const { return std::holds_alternative<std::shared_ptr<TensorStack>>(m_value); }
    const Tensor &tensor() const { return std::get<Tensor>(m_value); }
    Tensor &tensor() { return std::get<Tensor>(m_value); }
    const std::vector<Tensor> &list() const { return std::get<std::vector<Tensor>>(m_value); }
    std::vector<Tensor> &list() { return std::get<std::vector<Tensor>>(m_value); }
    const std::shared_ptr<TensorStack> &stack() const
    {
        return std::get<std::shared_ptr<TensorStack>>(m_value);
    }

private:
    std::variant<std::monostate, Tensor, std::vector<Tensor>, std::shared_ptr<TensorStack>> m_value;
};

} // namespace ps
