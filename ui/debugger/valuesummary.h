#pragma once

#include "core/ir/value.h"

#include <QObject>
#include <QString>
#include <cstdint>
#include <unordered_map>

namespace ps {

class DebugSession;

/// One line about what a value holds in the paused session, for hover tooltips:
/// "float32[1, 16, 56, 56] · min -1.2 · max 3.4 · mean 0.12 · NaN 0", "not computed",
/// "freed (no_need_buffer)". Statistics are computed on a host copy the first time a value is
/// asked for after a stop and cached until the next one; values over kMaxElements (by the run's
/// records of their shapes, before any copy) are described without statistics: a hover must not
/// stall the GUI thread on a huge copy.
class ValueSummary : public QObject
{
    Q_OBJECT

public:
    static constexpr int64_t kMaxElements = 16 * 1024 * 1024;

    explicit ValueSummary(DebugSession *session, QObject *parent = nullptr);

    /// Empty without a session or while it runs.
    QString text(Value value);

private:
    QString compute(Value value) const;
    /// `value`'s element count from its producer's latest record, else its static type; -1 when
    /// unknown.
    int64_t knownElements(Value value) const;

    DebugSession *m_session;
    std::unordered_map<Value, QString> m_cache;
};

} // namespace ps
