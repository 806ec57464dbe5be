#pragma once

#include "core/graph/graphmodel.h"
#include "ui/layoutresult.h"

#include <QElapsedTimer>
#include <QGraphicsView>
#include <memory>

class QFrame;
class QLabel;
class QPushButton;

namespace ps {

class GraphScene;
class GraphvizLayout;

/// Shows a GraphModel: writes its DOT, lays it out on the Graphviz thread (with a progress
/// overlay and a Cancel button meanwhile), then fills the GraphScene. Wheel zooms under the
/// cursor, dragging the background pans, F / Ctrl+0 fit the graph.
class GraphView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit GraphView(QWidget *parent = nullptr);
    ~GraphView() override;

    GraphScene *graphScene() const { return m_scene; }
    GraphvizLayout *layoutEngine() const { return m_layout; }

    /// Starts laying out `model`; the current graph stays visible until the layout finishes.
    void showGraph(std::shared_ptr<const GraphModel> model);
    void clearGraph();
    bool isLayoutRunning() const;
    void cancelLayout();
    /// The DOT text of the last showGraph() (what Graphviz laid out).
    const QByteArray &dotText() const { return m_dot; }
    /// DOT `splines` value used for the next showGraph(); "spline" by default.
    void setSplines(const QString &splines) { m_splines = splines; }

    /// Renders what the view shows into a PNG at twice the screen resolution.
    bool exportPng(const QString &path);
    /// Renders what the view shows as an SVG document titled `title`.
    bool exportSvg(const QString &path, const QString &title);

    void fitGraph();
    /// Zooms by `factor` around the view centre, clamped to [kMinZoom, kMaxZoom].
    void zoomBy(double factor);
    /// Zooms by `factor` keeping the scene point under `viewportPos` in place (wheel zoom).
    void zoomAt(double factor, const QPointF &viewportPos);
    double zoom() const;
    void centerOnOp(const Operation *op);

    static constexpr double kMinZoom = 0.005;
    static constexpr double kMaxZoom = 8.0;

signals:
    /// `seconds`: from showGraph() to the scene being filled.
    void layoutFinished(double seconds, bool fromCache);
    void layoutFailed(const QString &message);
    void layoutCanceled();

protected:
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void onLayoutFinished(quint64 generation, std::shared_ptr<const LayoutResult> result, bool fromCache);
    void setOverlayVisible(bool visible);
    void placeOverlay();
    void showInitialView();

    GraphScene *m_scene;
    GraphvizLayout *m_layout;
    std::shared_ptr<const GraphModel> m_pendingModel;
    QByteArray m_dot;
    QString m_splines = QStringLiteral("spline");
    QElapsedTimer m_timer;
    QFrame *m_overlay;
    QLabel *m_overlayLabel;
    QPushButton *m_cancelButton;
};

} // namespace ps
