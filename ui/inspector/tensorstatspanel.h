#pragma once

#include "core/runtime/tensor.h"
#include "core/runtime/tensorstats.h"

#include <QMap>
#include <QWidget>

class QFormLayout;
class QLabel;

namespace ps {

/// A two-column summary of one tensor: shape, dtype, device, element count, then min / max /
/// mean / std and the NaN / +Inf / -Inf / zero counts once statistics arrive (non-zero NaN and
/// Inf counts in red).
class TensorStatsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit TensorStatsPanel(QWidget *parent = nullptr);

    /// Shape, dtype, device and count of `t`; the statistics rows show "…" until setStats().
    void setTensor(const Tensor &t);
    void setStats(const TensorStats &stats);
    /// The statistics rows show `reason` ("not available: ...").
    void setStatsUnavailable(const QString &reason);
    void clear();

    /// The text of a row by its label ("Shape", "Min", "NaN", ...), for tests and copy.
    QString field(const QString &label) const;

private:
    void setField(const QString &label, const QString &text, bool alarm = false);
    void setStatsText(const QString &text);

    QFormLayout *m_form;
    QMap<QString, QLabel *> m_fields;
};

} // namespace ps
