#include "ui/memorychart.h"

#include "core/session/memorymodel.h"

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>

namespace ps {

namespace {

QString bytesText(double bytes)
{
    return QLocale().formattedDataSize(qint64(bytes), 2, QLocale::DataSizeSIFormat);
}

} // namespace

MemoryChart::MemoryChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("memoryChart"));
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void MemoryChart::setReport(std::shared_ptr<const MemoryReport> report)
{
    m_report = std::move(report);
    m_peakIndex = -1;
    if (m_report)
        for (size_t i = 0; i < m_report->timeline.size(); ++i)
            if (m_report->timeline[i].op == m_report->peakOp) {
                m_peakIndex = long(i);
                break;
            }
    update();
}

void MemoryChart::setMeasured(std::vector<int64_t> bytes, bool asPaddle)
{
    m_measured = std::move(bytes);
    m_measuredAsPaddle = asPaddle;
    m_measuredMax = 0;
    for (int64_t b : m_measured)
        m_measuredMax = std::max(m_measuredMax, b);
    update();
}

void MemoryChart::setCurrent(long index)
{
    if (index == m_current)
        return;
    m_current = index;
    update();
}

QSize MemoryChart::sizeHint() const
{
    return { 480, 160 };
}

QSize MemoryChart::minimumSizeHint() const
{
    return { 200, 90 };
}

QRectF MemoryChart::plotRect() const
{
    const QFontMetrics fm = fontMetrics();
    const double left = fm.horizontalAdvance(QStringLiteral("999.99 MB")) + 10;
    return QRectF(left, fm.height() + 6, std::max(10.0, width() - left - 10),
        std::max(10.0, height() - 2.0 * fm.height() - 12));
}

double MemoryChart::yMax() const
{
    const int64_t top = std::max(m_report ? m_report->peakBytes : 0, m_measuredMax);
    return top > 0 ? double(top) * 1.08 : 1.0;
}

double MemoryChart::yOf(double bytes) const
{
    const QRectF plot = plotRect();
    return plot.bottom() - bytes / yMax() * plot.height();
}

double MemoryChart::xOf(long index) const
{
    const QRectF plot = plotRect();
    const size_t n = m_report ? m_report->timeline.size() : 0;
    return n == 0 ? plot.left() : plot.left() + (double(index) + 0.5) / double(n) * plot.width();
}

long MemoryChart::indexAt(double x) const
{
    const QRectF plot = plotRect();
    const size_t n = m_report ? m_report->timeline.size() : 0;
    if (n == 0 || x < plot.left() || x > plot.right())
        return -1;
    return std::clamp(long((x - plot.left()) / plot.width() * double(n)), 0L, long(n) - 1);
}

void MemoryChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRectF plot = plotRect();
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(plot);
    if (!m_report || m_report->timeline.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No memory model: open a program"));
        return;
    }
    p.setRenderHint(QPainter::Antialiasing);
    const std::vector<MemoryTimelinePoint> &timeline = m_report->timeline;
    const size_t n = timeline.size();

    // One step per op, or per pixel column (its largest) when the ops outnumber the pixels.
    const long columns = std::max<long>(1, std::min<long>(long(n), long(plot.width())));
    QPainterPath area(QPointF(plot.left(), plot.bottom()));
    for (long c = 0; c < columns; ++c) {
        const size_t begin = size_t(c) * n / size_t(columns);
        const size_t end = std::max(begin + 1, size_t(c + 1) * n / size_t(columns));
        int64_t most = 0;
        for (size_t i = begin; i < end && i < n; ++i)
            most = std::max(most, timeline[i].liveBytes);
        const double x0 = plot.left() + double(c) / double(columns) * plot.width();
        const double x1 = plot.left() + double(c + 1) / double(columns) * plot.width();
        area.lineTo(x0, yOf(double(most)));
        area.lineTo(x1, yOf(double(most)));
    }
    area.lineTo(plot.right(), plot.bottom());
    area.closeSubpath();
    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlpha(90);
    p.fillPath(area, fill);
    p.setPen(QPen(palette().color(QPalette::Highlight), 1.2));
    p.drawPath(area);

    // What the run measured, per column as the prediction, where it has run.
    // Green: apart from the prediction's highlight blue and the debugger's orange, in both themes.
    const bool dark = palette().color(QPalette::Base).lightnessF() < 0.5;
    const QColor measuredColour = dark ? QColor(0x66, 0xbb, 0x6a) : QColor(0x2e, 0x7d, 0x32);
    if (m_measured.size() == n) {
        QPainterPath line;
        bool drawing = false;
        for (long c = 0; c < columns; ++c) {
            const size_t begin = size_t(c) * n / size_t(columns);
            const size_t end = std::max(begin + 1, size_t(c + 1) * n / size_t(columns));
            int64_t most = -1;
            for (size_t i = begin; i < end && i < n; ++i)
                most = std::max(most, m_measured[i]);
            if (most < 0) {
                drawing = false;
                continue;
            }
            const double x0 = plot.left() + double(c) / double(columns) * plot.width();
            const double x1 = plot.left() + double(c + 1) / double(columns) * plot.width();
            if (drawing)
                line.lineTo(x0, yOf(double(most)));
            else
                line.moveTo(x0, yOf(double(most)));
            line.lineTo(x1, yOf(double(most)));
            drawing = true;
        }
        p.setPen(QPen(measuredColour, 2.2));
        p.setBrush(Qt::NoBrush);
        p.drawPath(line);
    }

    // Axis: 0, the baseline, the peak.
    const QFontMetrics fm = fontMetrics();
    p.setPen(palette().color(QPalette::Text));
    auto yLabel = [&](double bytes) {
        const double y = yOf(bytes);
        p.drawText(QRectF(0, y - fm.height() / 2.0, plot.left() - 6, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, bytesText(bytes));
    };
    yLabel(0);
    yLabel(double(m_report->peakBytes));
    if (m_report->baselineBytes > 0) {
        const double y = yOf(double(m_report->baselineBytes));
        if (std::abs(y - yOf(double(m_report->peakBytes))) > fm.height()
            && std::abs(y - yOf(0)) > fm.height())
            yLabel(double(m_report->baselineBytes));
        p.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.drawText(QPointF(plot.left() + 4, y - 3), tr("baseline (parameters, inputs)"));
    }

    // The cut between the forward and the backward.
    if (m_report->cut > 0 && m_report->cut < n) {
        const double x = plot.left() + double(m_report->cut) / double(n) * plot.width();
        p.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DotLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.drawText(QPointF(x - fm.horizontalAdvance(tr("forward")) - 4, plot.bottom() + fm.ascent() + 3),
            tr("forward"));
        p.drawText(QPointF(x + 4, plot.bottom() + fm.ascent() + 3), tr("backward"));
    }

    // The peak.
    if (m_peakIndex >= 0) {
        const QPointF at(xOf(m_peakIndex), yOf(double(m_report->peakBytes)));
        p.setPen(QPen(QColor(0xc6, 0x28, 0x28), 1.5));
        p.setBrush(QColor(0xc6, 0x28, 0x28));
        p.drawEllipse(at, 3.5, 3.5);
        const QString label
            = tr("peak %1 at %2 %3")
                  .arg(bytesText(double(m_report->peakBytes)), QString::fromStdString(m_report->peakOp),
                      QString::fromStdString(m_report->peakOpName));
        const double w = fm.horizontalAdvance(label);
        const double x = std::clamp(at.x() - w / 2, plot.left(), std::max(plot.left(), plot.right() - w));
        p.drawText(QPointF(x, plot.top() - 4), label);
    }

    // The legend, when there is a measurement to tell from the prediction: bottom right, where
    // neither the peak's label (top) nor the baseline's (left) is.
    if (m_measured.size() == n) {
        const QString predicted = tr("predicted");
        const QString measured
            = m_measuredAsPaddle ? tr("measured") : tr("measured (values kept for the inspector)");
        const double swatch = fm.height();
        double x = plot.right() - 8 - fm.horizontalAdvance(measured) - fm.horizontalAdvance(predicted)
            - 2 * (swatch + 6) - 12;
        const double y = plot.bottom() - 4 - fm.height() / 2.0;
        p.fillRect(QRectF(x - 4, y - fm.height() / 2.0 - 2, plot.right() - x, fm.height() + 4),
            palette().color(QPalette::Base));
        auto entry = [&](const QColor &colour, const QString &text) {
            p.setPen(QPen(colour, 2.5));
            p.drawLine(QPointF(x, y), QPointF(x + swatch, y));
            x += swatch + 6;
            p.setPen(palette().color(QPalette::Text));
            p.drawText(QPointF(x, y + fm.ascent() / 2.0 - 1), text);
            x += fm.horizontalAdvance(text) + 12;
        };
        entry(palette().color(QPalette::Highlight), predicted);
        entry(measuredColour, measured);
    }

    // Where the debugger is.
    if (m_current >= 0 && size_t(m_current) < n) {
        const double x = xOf(m_current);
        p.setPen(QPen(QColor(0xef, 0x8a, 0x00), 2));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
}

void MemoryChart::mousePressEvent(QMouseEvent *event)
{
    const long index = indexAt(event->position().x());
    if (index >= 0 && event->button() == Qt::LeftButton)
        emit pointActivated(index);
}

void MemoryChart::mouseMoveEvent(QMouseEvent *event)
{
    const long index = indexAt(event->position().x());
    if (index < 0 || !m_report) {
        QToolTip::hideText();
        return;
    }
    const MemoryTimelinePoint &point = m_report->timeline[size_t(index)];
    QString text = tr("%1 %2\n%3 allocated while it runs (%4 above the baseline)")
                       .arg(QString::fromStdString(point.op), QString::fromStdString(point.opName),
                           bytesText(double(point.liveBytes)),
                           bytesText(double(point.liveBytes - m_report->baselineBytes)));
    if (size_t(index) < m_measured.size() && m_measured[size_t(index)] >= 0)
        text += tr("\nmeasured: %1").arg(bytesText(double(m_measured[size_t(index)])));
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace ps
