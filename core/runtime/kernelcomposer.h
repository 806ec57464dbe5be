#pragma once

#include "core/ir/attribute.h"
#include "core/ir/program.h"
#include "core/runtime/runtimevalue.h"

#include <string_view>
#include <vector>

namespace ps {

class Backend;
class KernelContext;

/// Runs other kernels of one backend on tensors, so a fused op's kernel can be its unfused
/// ops' kernels in sequence (and give exactly their results, on every backend that has them).
/// Each call builds a scratch op (name, operand and result types from the tensors, attributes)
/// in a private program and calls the backend's kernel for it. Not thread-safe; the scratch
/// program grows with every call (a few hundred bytes), so use one composer per kernel call.
class KernelComposer
{
public:
    explicit KernelComposer(const KernelContext &context);
    explicit KernelComposer(Backend &backend);

    /// Runs `opName` on `inputs` (a null RuntimeValue for an absent optional operand). Result
    /// types default to the first input's dtype with unknown dims; pass `resultTypes` when a
    /// kernel reads its result dtype. Throws RuntimeError naming the op when the backend has no
    /// kernel for it, or what that kernel throws.
    std::vector<RuntimeValue> run(std::string_view opName, const std::vector<RuntimeValue> &inputs,
        std::vector<NamedAttribute> attributes = {}, std::vector<Type> resultTypes = {});
    /// The first result of run() as a tensor.
    Tensor tensor(std::string_view opName, const std::vector<RuntimeValue> &inputs,
        std::vector<NamedAttribute> attributes = {}, std::vector<Type> resultTypes = {});

    Backend &backend() const { return m_backend; }

private:
    Backend &m_backend;
    Program m_scratch;
};

} // namespace ps
