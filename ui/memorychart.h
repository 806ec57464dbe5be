#pragma once

#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

namespace ps {

struct MemoryReport;

/// The live bytes of a run op by op (MemoryReport::timeline) as a step plot: the baseline
/// (parameters and inputs) dashed, the cut between forward and backward, the peak marked and
/// labelled, the op the debugger is at and what its run measured so far. Many more ops than pixels are drawn
/// as each pixel column's maximum. Hovering shows the op and its bytes; a click reports the op's timeline
/// index (pointActivated).
class MemoryChart : public QWidget
{
    Q_OBJECT

public:
    explicit MemoryChart(QWidget *parent = nullptr);

    /// Null clears the chart.
    void setReport(std::shared_ptr<const MemoryReport> report);
    std::shared_ptr<const MemoryReport> report() const { return m_report; }
    /// What a run measured at each timeline point (MemoryTimelinePoint::measuredBytes: -1 where
    /// it has not run), drawn over the prediction; empty hides it. `asPaddle`: the run freed
    /// values as Paddle does (else it kept them for the inspector, and says so in the legend).
    void setMeasured(std::vector<int64_t> bytes, bool asPaddle);
    const std::vector<int64_t> &measured() const { return m_measured; }
    /// The timeline index the debugger is at; -1 hides the marker.
    void setCurrent(long index);
    long current() const { return m_current; }

    /// Where the plot is drawn, inside the axis labels.
    QRectF plotRect() const;
    /// The timeline index under x = `x` (widget coordinates), -1 outside the plot.
    long indexAt(double x) const;
    /// The x of a timeline index's centre.
    double xOf(long index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void pointActivated(long index);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    double yOf(double bytes) const;
    /// The top of the y axis: the peak and a margin.
    double yMax() const;

    std::shared_ptr<const MemoryReport> m_report;
    std::vector<int64_t> m_measured;
    int64_t m_measuredMax = 0;
    bool m_measuredAsPaddle = true;
    long m_current = -1;
    long m_peakIndex = -1;
};

} // namespace ps
