#include "ui/inspector/histogramwidget.h"

#include "ui/common/themecolors.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace ps {

namespace {

constexpr int kMargin = 8;

QString number(double v)
{
    return QString::asprintf("%.6g", v);
}

} // namespace

HistogramWidget::HistogramWidget(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

void HistogramWidget::setStats(const TensorStats &stats)
{
    if (stats.histogram.empty()) {
        clear(stats.count == 0 ? tr("empty tensor") : tr("no finite element"));
        return;
    }
    setHistogram(stats.histogram, stats.min, stats.max);
}

void HistogramWidget::setHistogram(std::vector<int64_t> counts, double min, double max)
{
    m_counts = std::move(counts);
    m_min = min;
    m_max = max;
    m_message.clear();
    m_hover = -1;
    update();
}

void HistogramWidget::clear(const QString &message)
{
    m_counts.clear();
    m_message = message;
    m_hover = -1;
    update();
}

void HistogramWidget::setLogScale(bool on)
{
    m_log = on;
    update();
}

QRect HistogramWidget::plotRect() const
{
    const QFontMetrics fm = fontMetrics();
    const int left = kMargin + fm.horizontalAdvance(QStringLiteral("0000000000")) + 4;
    return rect().adjusted(left, kMargin + fm.height(), -kMargin, -kMargin - 2 * fm.height() - 4);
}

int HistogramWidget::binAt(const QPoint &pos) const
{
    const QRect plot = plotRect();
    if (m_counts.empty() || plot.width() <= 0 || pos.x() < plot.left() || pos.x() > plot.right()
        || pos.y() < plot.top() || pos.y() > plot.bottom())
        return -1;
    const int bin = int(double(pos.x() - plot.left()) / plot.width() * double(m_counts.size()));
    return std::clamp(bin, 0, int(m_counts.size()) - 1);
}

QString HistogramWidget::binText(int bin) const
{
    if (bin < 0 || size_t(bin) >= m_counts.size())
        return {};
    const double width = (m_max - m_min) / double(m_counts.size());
    const bool last = size_t(bin) + 1 == m_counts.size();
    return tr("[%1, %2%3: %4")
        .arg(number(m_min + bin * width), number(m_min + (bin + 1) * width),
            last ? QStringLiteral("]") : QStringLiteral(")"))
        .arg(m_counts[size_t(bin)]);
}

void HistogramWidget::mouseMoveEvent(QMouseEvent *event)
{
    const int bin = binAt(event->position().toPoint());
    if (bin != m_hover) {
        m_hover = bin;
        setToolTip(hoverText());
        update();
    }
}

void HistogramWidget::leaveEvent(QEvent *)
{
    if (m_hover >= 0) {
        m_hover = -1;
        update();
    }
}

void HistogramWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (m_counts.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, m_message.isEmpty() ? tr("no histogram") : m_message);
        return;
    }
    const QRect plot = plotRect();
    if (plot.width() <= 0 || plot.height() <= 0)
        return;
    const int64_t peak = *std::max_element(m_counts.begin(), m_counts.end());
    auto scaled = [&](int64_t c) {
        if (c <= 0 || peak <= 0)
            return 0.0;
        return m_log ? std::log1p(double(c)) / std::log1p(double(peak)) : double(c) / double(peak);
    };
    const double binWidth = double(plot.width()) / double(m_counts.size());
    const QColor bar = palette().color(QPalette::Highlight), highlight = ThemeColors::current().accent;
    for (size_t i = 0; i < m_counts.size(); ++i) {
        const double h = scaled(m_counts[i]) * plot.height();
        if (h <= 0)
            continue;
        const QRectF r(plot.left() + i * binWidth, plot.bottom() + 1 - std::max(h, 1.0),
            std::max(binWidth - (binWidth > 3 ? 1 : 0), 1.0), std::max(h, 1.0));
        p.fillRect(r, int(i) == m_hover ? highlight : bar);
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());

    p.setPen(palette().color(QPalette::Text));
    const QRect yLabels(kMargin, plot.top() - fm.height() / 2, plot.left() - kMargin - 4, fm.height());
    p.drawText(yLabels, Qt::AlignRight | Qt::AlignVCenter, QString::number(peak));
    p.drawText(QRect(kMargin, plot.bottom() - fm.height() / 2, plot.left() - kMargin - 4, fm.height()),
        Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
    const int labelY = plot.bottom() + 4;
    p.drawText(QRect(plot.left(), labelY, plot.width(), fm.height()), Qt::AlignLeft, number(m_min));
    p.drawText(QRect(plot.left(), labelY, plot.width(), fm.height()), Qt::AlignRight, number(m_max));
    const QString info = m_hover >= 0
        ? binText(m_hover)
        : tr("%1 bins%2").arg(m_counts.size()).arg(m_log ? tr(", log count") : QString());
    p.drawText(QRect(plot.left(), labelY + fm.height(), plot.width(), fm.height()), Qt::AlignHCenter, info);
    p.drawText(QRect(plot.left(), kMargin / 2, plot.width(), fm.height()), Qt::AlignLeft,
        m_log ? tr("count (log)") : tr("count"));
}

} // namespace ps
