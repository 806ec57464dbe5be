#pragma once

#include <QWidget>
#include <memory>

namespace ps {

class ElidedLabel;
class MemoryChart;
struct MemoryReport;

/// The "Memory" dock: a summary line (the peak and its op, the baseline, what the forward keeps
/// for the backward, what stays after the step, the values of unknown size) over the chart of
/// the live bytes (MemoryChart).
class MemoryPanel : public QWidget
{
    Q_OBJECT

public:
    explicit MemoryPanel(QWidget *parent = nullptr);

    /// Null: `why` instead of the summary.
    void setReport(std::shared_ptr<const MemoryReport> report, const QString &why = {});

    ElidedLabel *summary() const { return m_summary; }
    MemoryChart *chart() const { return m_chart; }

private:
    ElidedLabel *m_summary;
    MemoryChart *m_chart;
};

} // namespace ps
