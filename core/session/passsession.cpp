#include "core/session/passsession.h"

#include "core/runtime/backend.h"
#include "core/runtime/parameterstore.h"
#include "core/session/parameterstoreevaluator.h"
#include "core/session/passtimelinenumerics.h"

namespace ps {

PassSession::PassSession()
    : m_backend(createCpuBackend())
{
}

PassSession::~PassSession() = default;

bool PassSession::loadParameters(const Program &program, const TensorSource &source, std::string &error)
{
    m_store = std::make_shared<ParameterStore>();
    if (m_store->load(program, source, error))
        return true;
    m_store.reset();
    return false;
}

PassOptions PassSession::passOptions(PassOptions options) const
{
    options.evaluator = m_store ? std::make_shared<ParameterStoreEvaluator>(m_store, *m_backend) : nullptr;
    return options;
}

std::shared_ptr<PassNumericsCheck> PassSession::numericsCheck(PassNumericsCheck::Options options) const
{
    return std::make_shared<PassNumericsCheck>(*m_backend, m_store, std::move(options));
}

std::shared_ptr<PassTimelineCheck> PassSession::timelineCheck(PassNumericsCheck::Options options) const
{
    return std::make_shared<PassTimelineNumerics>(*m_backend, m_store, std::move(options));
}

} // namespace ps
