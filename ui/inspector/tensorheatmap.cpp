#include "ui/inspector/tensorheatmap.h"

#include "ui/inspector/tensorslicemodel.h"

#include <QAbstractScrollArea>
#include <QFutureWatcher>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <limits>

namespace ps {

namespace {

constexpr int kMargin = 6;
constexpr int kBarWidth = 14;

QString number(double v)
{
    return QString::asprintf("%.4g", v);
}

} // namespace

TensorHeatmap::TensorHeatmap(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::ClickFocus); // + - 0 zoom
}

TensorHeatmap::Rendering TensorHeatmap::render(const TensorSlice &slice, ColorMap::Kind kind, int maxSide)
{
    Rendering out;
    const int64_t rows = slice.rows(), cols = slice.columns();
    if (!slice.valid() || rows == 0 || cols == 0)
        return out;
    maxSide = std::max(1, maxSide);
    out.rowsPerPixel = (rows + maxSide - 1) / maxSide;
    out.columnsPerPixel = (cols + maxSide - 1) / maxSide;
    const int h = int((rows + out.rowsPerPixel - 1) / out.rowsPerPixel);
    const int w = int((cols + out.columnsPerPixel - 1) / out.columnsPerPixel);
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();

    std::vector<double> pixels(size_t(w) * size_t(h));
    double lo = inf, hi = -inf;
    for (int py = 0; py < h; ++py) {
        const int64_t r0 = py * out.rowsPerPixel, r1 = std::min(rows, r0 + out.rowsPerPixel);
        for (int px = 0; px < w; ++px) {
            const int64_t c0 = px * out.columnsPerPixel, c1 = std::min(cols, c0 + out.columnsPerPixel);
            double sum = 0, special = 0;
            int64_t n = 0;
            bool sawNan = false, sawInf = false;
            for (int64_t r = r0; r < r1; ++r)
                for (int64_t c = c0; c < c1; ++c) {
                    const double v = slice.value(r, c);
                    if (std::isnan(v)) {
                        sawNan = true;
                        ++out.nanCount;
                    } else if (std::isinf(v)) {
                        sawInf = true;
                        special = v;
                        ++(v > 0 ? out.posInfCount : out.negInfCount);
                    } else {
                        sum += v;
                        ++n;
                        lo = std::min(lo, v);
                        hi = std::max(hi, v);
                    }
                }
            pixels[size_t(py) * size_t(w) + size_t(px)] = sawNan ? nan : (sawInf ? special : sum / double(n));
        }
    }
    out.hasRange = lo <= hi;
    if (out.hasRange && kind == ColorMap::Kind::Diverging) {
        const double m = std::max(std::abs(lo), std::abs(hi));
        lo = -m;
        hi = m;
    }
    out.low = out.hasRange ? lo : 0;
    out.high = out.hasRange ? hi : 0;

    out.image = QImage(w, h, QImage::Format_RGB32);
    const double span = out.high - out.low;
    for (int py = 0; py < h; ++py) {
        QRgb *line = reinterpret_cast<QRgb *>(out.image.scanLine(py));
        for (int px = 0; px < w; ++px) {
            const double v = pixels[size_t(py) * size_t(w) + size_t(px)];
            if (std::isnan(v))
                line[px] = ColorMap::NanColor;
            else if (std::isinf(v))
                line[px] = v > 0 ? ColorMap::PosInfColor : ColorMap::NegInfColor;
            else
                line[px] = ColorMap::color(kind, span > 0 ? (v - out.low) / span : 0.5);
        }
    }
    return out;
}

void TensorHeatmap::setSlice(const TensorSlice &slice)
{
    m_slice = slice;
    m_message.clear();
    startRender();
}

void TensorHeatmap::clear(const QString &message)
{
    ++m_generation;
    m_slice = TensorSlice();
    m_rendering = Rendering();
    m_message = message;
    m_hoverText.clear();
    updateGeometry();
    update();
}

void TensorHeatmap::setColorMap(ColorMap::Kind kind)
{
    if (kind == m_kind)
        return;
    m_kind = kind;
    if (m_slice.valid())
        startRender();
}

void TensorHeatmap::startRender()
{
    const int generation = ++m_generation;
    ++m_pending;
    auto *watcher = new QFutureWatcher<Rendering>(this);
    connect(watcher, &QFutureWatcher<Rendering>::finished, this, [this, watcher, generation] {
        --m_pending;
        if (generation == m_generation) {
            m_rendering = watcher->result();
            updateGeometry(); // its size follows the slice's
            update();
            emit rendered();
        }
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(&TensorHeatmap::render, m_slice, m_kind, int(MaxSide)));
    update();
}

QSize TensorHeatmap::chrome() const
{
    const int statusHeight = fontMetrics().height() + kMargin;
    return { 2 * kMargin + legendWidth(), 2 * kMargin + statusHeight };
}

QSize TensorHeatmap::sizeHint() const
{
    if (m_rendering.image.isNull() || m_zoom <= 0)
        return { 240, 160 };
    return minimumSizeHint();
}

QSize TensorHeatmap::minimumSizeHint() const
{
    if (m_rendering.image.isNull())
        return { 120, 60 };
    if (m_zoom <= 0) // fitted: whatever room the scroll area has
        return QSize(64, 48) + chrome();
    const QSize img = m_rendering.image.size();
    return QSize(int(std::ceil(img.width() * m_zoom)), int(std::ceil(img.height() * m_zoom))) + chrome();
}

double TensorHeatmap::scale() const
{
    const QRect r = imageRect();
    return r.isEmpty() ? 0 : double(r.width()) / m_rendering.image.width();
}

void TensorHeatmap::setZoom(double zoom)
{
    zoom = zoom <= 0 ? 0 : std::clamp(zoom, 1.0 / 16, MaxZoom);
    if (zoom == m_zoom)
        return;
    m_zoom = zoom;
    updateGeometry();
    update();
}

void TensorHeatmap::zoomBy(double factor)
{
    const double now = scale();
    if (now > 0)
        setZoom(now * factor);
}

void TensorHeatmap::wheelEvent(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier) || m_rendering.image.isNull()) {
        event->ignore(); // the scroll area scrolls
        return;
    }
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

void TensorHeatmap::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal)
        zoomBy(1.25);
    else if (event->key() == Qt::Key_Minus)
        zoomBy(0.8);
    else if (event->key() == Qt::Key_0)
        setZoom(0);
    else
        QWidget::keyPressEvent(event);
}

void TensorHeatmap::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_zoom > 0) {
        m_dragFrom = event->globalPosition().toPoint();
        setCursor(Qt::ClosedHandCursor);
    }
    QWidget::mousePressEvent(event);
}

void TensorHeatmap::mouseReleaseEvent(QMouseEvent *event)
{
    m_dragFrom = QPoint();
    unsetCursor();
    QWidget::mouseReleaseEvent(event);
}

int TensorHeatmap::legendWidth() const
{
    if (m_rendering.image.isNull())
        return 0;
    const QFontMetrics fm = fontMetrics();
    int labels = 0;
    for (double v : { m_rendering.low, m_rendering.high, (m_rendering.low + m_rendering.high) / 2 })
        labels = std::max(labels, fm.horizontalAdvance(number(v)));
    labels = std::max(labels, fm.horizontalAdvance(QStringLiteral("+inf")) + kBarWidth);
    return kBarWidth + 6 + labels + kMargin;
}

QRect TensorHeatmap::imageRect() const
{
    if (m_rendering.image.isNull())
        return {};
    const int statusHeight = fontMetrics().height() + kMargin;
    const QRect avail = rect().adjusted(kMargin, kMargin, -kMargin - legendWidth(), -kMargin - statusHeight);
    if (avail.width() <= 0 || avail.height() <= 0)
        return {};
    const QSize img = m_rendering.image.size();
    // Fitted: as large as fits, but a small slice's elements stay cells, not slabs.
    const double scale = m_zoom > 0 ? m_zoom
                                    : std::min({ double(avail.width()) / img.width(),
                                        double(avail.height()) / img.height(), double(MaxCellPixels) });
    // Thin slices (a vector as one column) would vanish at their true aspect: keep a minimum.
    const int w = std::max(int(img.width() * scale), std::min(avail.width(), 24));
    const int h = std::max(int(img.height() * scale), std::min(avail.height(), 24));
    return { avail.left(), avail.top(), w, h };
}

bool TensorHeatmap::elementAt(const QPoint &pos, int64_t &row, int64_t &column) const
{
    const QRect r = imageRect();
    if (r.isEmpty() || !r.contains(pos) || !m_slice.valid())
        return false;
    row = std::clamp<int64_t>(
        int64_t(double(pos.y() - r.top()) / r.height() * double(m_slice.rows())), 0, m_slice.rows() - 1);
    column = std::clamp<int64_t>(int64_t(double(pos.x() - r.left()) / r.width() * double(m_slice.columns())),
        0, m_slice.columns() - 1);
    return true;
}

void TensorHeatmap::mouseMoveEvent(QMouseEvent *event)
{
    // Dragging a zoomed picture pans the scroll area it is in.
    if (!m_dragFrom.isNull() && (event->buttons() & Qt::LeftButton)) {
        auto *area
            = qobject_cast<QAbstractScrollArea *>(parentWidget() ? parentWidget()->parentWidget() : nullptr);
        const QPoint now = event->globalPosition().toPoint();
        if (area) {
            const QPoint moved = now - m_dragFrom;
            area->horizontalScrollBar()->setValue(area->horizontalScrollBar()->value() - moved.x());
            area->verticalScrollBar()->setValue(area->verticalScrollBar()->value() - moved.y());
        }
        m_dragFrom = now;
    }
    int64_t row, column;
    QString text;
    if (elementAt(event->position().toPoint(), row, column))
        text = tr("row %1, column %2 %3 = %4")
                   .arg(row)
                   .arg(column)
                   .arg(TensorSliceModel::indexText(m_slice.fullIndex(row, column)),
                       TensorSliceModel::valueText(m_slice, row, column));
    if (text != m_hoverText) {
        m_hoverText = text;
        update();
        emit hovered(text);
    }
}

void TensorHeatmap::leaveEvent(QEvent *)
{
    if (!m_hoverText.isEmpty()) {
        m_hoverText.clear();
        update();
        emit hovered({});
    }
}

QString TensorHeatmap::statusText() const
{
    if (!m_hoverText.isEmpty())
        return m_hoverText;
    QString s = tr("%1 × %2").arg(m_slice.rows()).arg(m_slice.columns());
    if (m_rendering.rowsPerPixel > 1 || m_rendering.columnsPerPixel > 1)
        s += tr(", %1 × %2 elements per pixel (NaN > Inf > mean)")
                 .arg(m_rendering.rowsPerPixel)
                 .arg(m_rendering.columnsPerPixel);
    if (!m_rendering.hasRange)
        s += tr(", no finite element");
    else
        s += tr(", colours span [%1, %2]").arg(number(m_rendering.low), number(m_rendering.high));
    return s;
}

void TensorHeatmap::drawLegend(QPainter &p, const QRect &bar) const
{
    const auto &table = ColorMap::table(m_kind);
    for (int y = 0; y < bar.height(); ++y) {
        const double t = bar.height() > 1 ? 1.0 - double(y) / (bar.height() - 1) : 0.5;
        p.setPen(QColor::fromRgb(table[size_t(std::lround(t * (ColorMap::Size - 1)))]));
        p.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    p.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics fm = fontMetrics();
    const int x = bar.right() + 6;
    p.drawText(x, bar.top() + fm.ascent(), number(m_rendering.high));
    // The middle label only where it clears the two ends.
    if (bar.height() >= 3 * fm.height() + 4)
        p.drawText(x, bar.center().y() + fm.ascent() / 2, number((m_rendering.low + m_rendering.high) / 2));
    p.drawText(x, bar.bottom(), number(m_rendering.low));

    // Swatches for the non-finite kinds present, under the bar.
    int y = bar.bottom() + 8;
    const std::pair<int64_t, std::pair<QRgb, const char *>> specials[] = {
        { m_rendering.nanCount, { ColorMap::NanColor, "nan" } },
        { m_rendering.posInfCount, { ColorMap::PosInfColor, "+inf" } },
        { m_rendering.negInfCount, { ColorMap::NegInfColor, "-inf" } },
    };
    for (const auto &[count, swatch] : specials) {
        if (count == 0)
            continue;
        const QRect box(bar.left(), y, kBarWidth, fm.height() - 2);
        p.fillRect(box, QColor::fromRgb(swatch.first));
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(box.adjusted(0, 0, -1, -1));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(x, y + fm.ascent() - 1, QString::fromLatin1(swatch.second));
        y += fm.height() + 2;
    }
}

void TensorHeatmap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const QFontMetrics fm = fontMetrics();
    if (m_rendering.image.isNull()) {
        QString text = m_message;
        if (text.isEmpty())
            text = isRendering() ? tr("rendering…") : tr("nothing to show");
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, text);
        return;
    }
    const QRect target = imageRect();
    if (!target.isEmpty()) {
        p.drawImage(target, m_rendering.image);
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(target.adjusted(-1, -1, 0, 0));
        // Tall enough for its two end labels apart, whatever the picture's height.
        const int legendHeight
            = std::max(2 * fm.height() + 4, std::min(target.height(), std::max(80, height() / 2)));
        drawLegend(p, QRect(target.right() + 14, target.top(), kBarWidth, legendHeight));
    }
    p.setPen(palette().color(QPalette::WindowText));
    const QRect status(kMargin, height() - fm.height() - kMargin / 2, width() - 2 * kMargin, fm.height());
    p.drawText(status, Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(statusText() + (isRendering() ? tr("  (rendering…)") : QString()), Qt::ElideRight,
            status.width()));
}

} // namespace ps
