#include "ui/debugger/valuesummary.h"

#include "core/ir/operation.h"
#include "core/runtime/oprecord.h"
#include "core/runtime/tensorstats.h"
#include "ui/debugger/debugsession.h"

namespace ps {

ValueSummary::ValueSummary(DebugSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    auto drop = [this] { m_cache.clear(); };
    connect(session, &DebugSession::stateChanged, this, drop);
    connect(session, &DebugSession::stoppedAt, this, drop);
    connect(session, &DebugSession::valuesChanged, this, drop);
    connect(session, &DebugSession::targetChanged, this, drop);
}

QString ValueSummary::text(Value value)
{
    if (!value || !m_session->isActive() || m_session->isRunning())
        return {};
    auto it = m_cache.find(value);
    if (it == m_cache.end())
        it = m_cache.emplace(value, compute(value)).first;
    return it->second;
}

int64_t ValueSummary::knownElements(Value value) const
{
    const auto count = [](const std::vector<int64_t> &dims) {
        int64_t n = 1;
        for (int64_t d : dims) {
            if (d < 0)
                return int64_t(-1);
            n *= d;
        }
        return n;
    };
    if (const Operation *producer = value.definingOp()) {
        const std::vector<OpRecord> &records = m_session->records();
        for (auto it = records.rbegin(); it != records.rend(); ++it)
            if (it->op == producer)
                return value.index() < it->outputShapes.size() ? count(it->outputShapes[value.index()]) : -1;
    }
    const Type type = value.type();
    return !type.isNull() && type.kind() == Type::Kind::DenseTensor ? count(type.dims()) : -1;
}

QString ValueSummary::compute(Value value) const
{
    const QString described = m_session->describe(value);
    // The run's record tells the size before any copy: a huge value is not copied for a hover.
    if (knownElements(value) > kMaxElements)
        return described + tr(" (too large for a summary here: select it to inspect)");
    const Tensor t = m_session->hostValue(value);
    if (!t.defined())
        return described;
    QString text = QString::fromStdString(t.describe());
    if (t.numElements() > kMaxElements)
        return text + tr(" (too large for a summary here: select it to inspect)");
    const TensorStats s = computeStatsHost(t, 0);
    const auto num = [](double v) { return QString::number(v, 'g', 5); };
    if (s.count > 0 && s.nanCount + s.posInfCount + s.negInfCount < s.count)
        text += tr(" · min %1 · max %2 · mean %3").arg(num(s.min), num(s.max), num(s.mean));
    text += tr(" · NaN %1").arg(s.nanCount);
    if (s.posInfCount + s.negInfCount > 0)
        text += tr(" · Inf %1").arg(s.posInfCount + s.negInfCount);
    return text;
}

} // namespace ps
