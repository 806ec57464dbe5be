#pragma once

#include "ui/inspector/colormap.h"
#include "ui/inspector/tensorslice.h"

#include <QImage>
#include <QWidget>

namespace ps {

/// A 2-D tensor slice as a heatmap: one pixel per element (or per block of elements when the
/// slice is larger than MaxSide), coloured over [min, max] of the finite elements with the
/// sequential map, or over [-m, m] (m = max |value|) with the diverging map; NaN magenta,
/// +Inf white, -Inf black. The widget draws it scaled (nearest neighbour), fitted or zoomed,
/// beside a colour-scale legend and shows the element under the mouse. Rendering runs off the UI
/// thread.
class TensorHeatmap : public QWidget
{
    Q_OBJECT

public:
    static constexpr int MaxSide = 1024;

    /// The rendered image and what it stands for.
    struct Rendering
    {
        QImage image; ///< Format_RGB32; null for an empty or unreadable slice
        double low = 0, high = 0; ///< the value range the colour map spans
        bool hasRange = false; ///< false when no element is finite
        int64_t rowsPerPixel = 1, columnsPerPixel = 1;
        int64_t nanCount = 0, posInfCount = 0, negInfCount = 0; ///< elements of the slice
    };

    explicit TensorHeatmap(QWidget *parent = nullptr);

    /// Renders `slice` asynchronously (rendered() follows); a later call supersedes a running one.
    void setSlice(const TensorSlice &slice);
    /// Clears the picture and shows `message` instead.
    void clear(const QString &message = {});
    void setColorMap(ColorMap::Kind kind);
    ColorMap::Kind colorMap() const { return m_kind; }
    bool isRendering() const { return m_pending > 0; }

    const Rendering &rendering() const { return m_rendering; }
    /// "row 3, column 7 (0, 3, 7) = 0.25" for the element under the mouse; empty outside.
    QString hoverText() const { return m_hoverText; }
    /// The element under `pos` (widget coordinates), or false outside the picture.
    bool elementAt(const QPoint &pos, int64_t &row, int64_t &column) const;

    /// Pure and thread-safe: a block of elements maps to one pixel by NaN > Inf > mean.
    static Rendering render(const TensorSlice &slice, ColorMap::Kind kind, int maxSide = MaxSide);

    /// Pixels an element may grow to when a small slice is scaled up.
    static constexpr int MaxCellPixels = 24;

    /// Fit (zoom 0, the default): the picture as large as the widget allows, any size. Zoomed:
    /// `zoom` screen pixels per rendered pixel, the widget that large (its scroll area scrolls;
    /// dragging pans it). Ctrl+wheel zooms, as + and - do; 0 fits again.
    void setZoom(double zoom);
    double zoom() const { return m_zoom; }
    /// Zooms in (factor > 1) or out from what is shown now (from fit: its scale).
    void zoomBy(double factor);
    /// Screen pixels per rendered pixel now (fit or zoomed); 0 without a picture.
    double scale() const;
    static constexpr double MaxZoom = 64;

    /// Fitted: small, whatever the slice (the scroll area gives it its viewport). Zoomed: the
    /// picture at that zoom plus the legend and status line.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void rendered();
    void hovered(const QString &text);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void startRender();
    QRect imageRect() const;
    /// Margins, legend and status line around the picture.
    QSize chrome() const;
    int legendWidth() const;
    void drawLegend(QPainter &p, const QRect &bar) const;
    QString statusText() const;

    TensorSlice m_slice;
    ColorMap::Kind m_kind = ColorMap::Kind::Sequential;
    Rendering m_rendering;
    QString m_message;
    QString m_hoverText;
    int m_generation = 0;
    int m_pending = 0;
    double m_zoom = 0; ///< 0: fit
    QPoint m_dragFrom; ///< global position of the last drag step; null when not dragging
};

} // namespace ps
