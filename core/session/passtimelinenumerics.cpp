#include "core/session/passtimelinenumerics.h"

#include "core/ir/shapesize.h"
#include "core/runtime/parameterstore.h"
#include "core/transform/pass.h"
#include "core/transform/passrecord.h"

#include <cstdio>

namespace ps {

PassTimelineNumerics::PassTimelineNumerics(
    Backend &backend, std::shared_ptr<ParameterStore> params, PassNumericsCheck::Options options)
    : m_backend(backend)
    , m_params(std::move(params))
    , m_options(std::move(options))
{
}

PassTimelineNumerics::~PassTimelineNumerics() = default;

void PassTimelineNumerics::begin(const Program &program)
{
    m_check = std::make_unique<PassNumericsCheck>(m_backend, m_params, m_options);
    m_check->runBeforePipeline(program, "program");
}

std::optional<NumericCheck> PassTimelineNumerics::afterPass(
    const Pass &pass, const Program &program, const PassRecord &record)
{
    if (!m_check)
        begin(program);
    m_check->runAfterPass(pass, program, record);
    return m_check->results().empty() ? std::nullopt : summary(m_check->results().back());
}

std::optional<NumericCheck> PassTimelineNumerics::summary(const PassNumerics &n)
{
    if (!n.checked && n.skipped == "not implemented in PIRScope")
        return std::nullopt;
    if (n.checked && n.skipped == "unchanged")
        return std::nullopt;
    NumericCheck c;
    if (!n.checked) {
        c.checked = false;
        c.note = n.skipped;
        return c;
    }
    c.ok = n.ok;
    c.maxAbs = n.maxAbs;
    c.maxRel = n.maxRel;
    c.worstValue = n.worstValue;
    char tolerance[96];
    std::snprintf(tolerance, sizeof tolerance, "rtol %g, atol %g", n.rtol, n.atol);
    c.note = (n.lowPrecision ? std::string("low-precision error expected, ") : std::string()) + tolerance
        + ", " + std::to_string(n.outputs.size()) + " outputs and " + std::to_string(n.valuesCompared)
        + " values compared; the check held " + ShapeSize::formatBytes(uint64_t(n.peakBytes))
        + ", a run alone " + ShapeSize::formatBytes(uint64_t(n.runPeakBytes));
    const PassNumerics::OrderSensitive &o = n.orderSensitive;
    if (o.values > 0) {
        std::string selections;
        for (const std::string &s : o.selections)
            selections += (selections.empty() ? "" : ", ") + s;
        char errors[160];
        std::snprintf(errors, sizeof errors, " (max abs %g; their float inputs within tolerance, max abs %g)",
            o.maxAbs, o.inputMaxAbs);
        c.note += "; " + std::to_string(o.values)
            + " order-sensitive values, not failures: near ties flipped in " + selections + errors;
    }
    return c;
}

} // namespace ps
