#pragma once

#include "core/transform/passtimeline.h"

#include <QAbstractTableModel>
#include <memory>

namespace ps {

/// A PassTimeline as a table, one row per step: the pass (indented inside the pass that ran it;
/// checkable when the timeline comes from PIRScope's own passes), what it changed (−removed
/// +added ~changed, once the step's diff is known), ops before → after, its time and its
/// numeric check. Unchecking or checking a pass emits passToggled().
class PassTimelineModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { StepColumn, PassColumn, ChangesColumn, OpsColumn, TimeColumn, NumericsColumn, ColumnCount };

    explicit PassTimelineModel(QObject *parent = nullptr);

    /// `checkable`: passes can be switched (a PassManager timeline, not a log).
    void setTimeline(std::shared_ptr<const PassTimeline> timeline, bool checkable);
    std::shared_ptr<const PassTimeline> timeline() const { return m_timeline; }
    /// Re-reads the counts of step `row` (its diff was just computed).
    void refreshStep(int row);

    /// "−3 +1 ~2", "no change", "…" (not yet known) or "—" (no program before).
    static QString changesText(const PassTimeline &timeline, size_t step);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    /// `step` is the row, which is the pass's position in the pipeline.
    void passToggled(int step, const QString &name, bool enabled);

private:
    std::shared_ptr<const PassTimeline> m_timeline;
    bool m_checkable = false;
    std::vector<int> m_pendingCheck; ///< -1 none, else the state the user just set (0/1)
};

} // namespace ps
