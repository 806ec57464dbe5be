#pragma once

#include "core/runtime/tensorstats.h"

#include <QWidget>
#include <vector>

namespace ps {

/// Bars for TensorStats::histogram (equal bins over [min, max] of the finite elements), with
/// the range and the tallest count as labels and the bin under the mouse highlighted with its
/// range and count. Optional logarithmic count axis for spiky distributions.
class HistogramWidget : public QWidget
{
    Q_OBJECT

public:
    explicit HistogramWidget(QWidget *parent = nullptr);

    void setStats(const TensorStats &stats);
    void setHistogram(std::vector<int64_t> counts, double min, double max);
    /// Empties the plot and shows `message` ("computing statistics…").
    void clear(const QString &message = {});
    void setLogScale(bool on);
    bool logScale() const { return m_log; }

    const std::vector<int64_t> &counts() const { return m_counts; }
    /// The bin under `pos` (widget coordinates), -1 outside the bars.
    int binAt(const QPoint &pos) const;
    /// "[0.25, 0.5): 12" for bin `bin`.
    QString binText(int bin) const;
    QString hoverText() const { return m_hover >= 0 ? binText(m_hover) : QString(); }

    QSize sizeHint() const override { return { 480, 240 }; }
    QSize minimumSizeHint() const override { return { 120, 30 }; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    QRect plotRect() const;

    std::vector<int64_t> m_counts;
    double m_min = 0, m_max = 0;
    QString m_message;
    bool m_log = false;
    int m_hover = -1;
};

} // namespace ps
