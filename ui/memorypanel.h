#pragma once

#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QSortFilterProxyModel;
class QTableView;

namespace ps {

class ElidedLabel;
class MemoryChart;
class MemoryValuesModel;
struct MemoryReport;

/// The "Memory" dock: a summary line (the peak and its op, the baseline, what the forward keeps
/// for the backward, what stays after the step, the values of unknown size) over the chart of
/// the live bytes (MemoryChart) and a table of buffers beside it: those the forward keeps for the
/// backward, the largest at the peak, or those of unknown size (a list to choose). Clicking a
/// row reports its op's label (valueActivated).
class MemoryPanel : public QWidget
{
    Q_OBJECT

public:
    explicit MemoryPanel(QWidget *parent = nullptr);

    /// Null: `why` instead of the summary.
    void setReport(std::shared_ptr<const MemoryReport> report, const QString &why = {});

    enum class List { Kept, TopAtPeak, Unknown };
    /// Which buffers the table lists.
    void showList(List list);

    ElidedLabel *summary() const { return m_summary; }
    MemoryChart *chart() const { return m_chart; }
    MemoryValuesModel *values() const { return m_values; }
    QTableView *table() const { return m_table; }
    QComboBox *listChooser() const { return m_list; }
    /// "Show on the graph": bars under the forward ops for the bytes they keep.
    QCheckBox *onGraph() const { return m_onGraph; }
    /// "Debug runs free as Paddle" (DebugSession::setFreeAsPaddle), kept in the settings.
    QCheckBox *freeAsPaddle() const { return m_freeAsPaddle; }
    /// What the debugger's run measured per timeline point (-1: not run), drawn over the
    /// prediction and summed up in the summary; empty clears it.
    void setMeasured(std::vector<int64_t> bytes, bool asPaddle);

signals:
    /// A row was clicked: the label of the op that allocates its buffer ("fwd:9").
    void valueActivated(const QString &opLabel);
    void showOnGraphChanged(bool on);
    void freeAsPaddleChanged(bool on);

private:
    ElidedLabel *m_summary;
    MemoryChart *m_chart;
    QComboBox *m_list;
    QCheckBox *m_onGraph;
    QCheckBox *m_freeAsPaddle;
    QString m_summaryText;
    MemoryValuesModel *m_values;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    std::shared_ptr<const MemoryReport> m_report;
};

} // namespace ps
