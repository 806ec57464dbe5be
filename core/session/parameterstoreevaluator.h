#pragma once

#include "core/transform/constantevaluator.h"

#include <memory>

namespace ps {

class Backend;
class ParameterStore;

/// constant_folding_pass's values, computed as Paddle computes them: the op is copied into a small
/// program (its parameter/constant operands, a combine when it has one, the op, a shadow output
/// per result), run by the Interpreter on `backend` (the CPU oracle) over the store's tensors, and
/// the results are stored under their new names. Cost: one op execution plus copying it.
class ParameterStoreEvaluator : public ConstantEvaluator
{
public:
    ParameterStoreEvaluator(std::shared_ptr<ParameterStore> store, Backend &backend);
    bool fold(const Operation &op, const std::vector<std::string> &resultNames, std::string &error) override;

    const std::shared_ptr<ParameterStore> &store() const { return m_store; }

private:
    std::shared_ptr<ParameterStore> m_store;
    Backend &m_backend;
};

} // namespace ps
