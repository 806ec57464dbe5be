#pragma once

#include "core/graph/dotwriter.h"
#include "core/graph/groupexpansion.h"
#include "ui/render/graphlayout.h"
#include "ui/render/graphstyle.h"
#include "ui/render/layoutresult.h"

#include <QByteArray>
#include <QObject>
#include <atomic>
#include <memory>

namespace ps {

class GraphvizThread;
class GroupLayoutEngine;

/// Layout for the UI thread: lays out a grouped GraphModel (GroupLayoutEngine) on its own
/// GraphvizThread. Every request gets a generation number; only the result of the newest
/// request is reported, and cancel() stops the running one between two group layouts (a
/// running gvLayout itself cannot be interrupted). Group layouts are cached by their DOT text,
/// so expanding, collapsing and reopening a view lay out only what changed.
class GraphvizLayout : public QObject
{
    Q_OBJECT

public:
    explicit GraphvizLayout(QObject *parent = nullptr);
    ~GraphvizLayout() override;

    /// Fonts and sizes of the boxes laid out (the view's style); applies to later requests.
    void setStyle(const GraphStyle &style) { m_style = style; }
    const GraphStyle &style() const { return m_style; }
    void setDotOptions(const DotWriterOptions &options) { m_dotOptions = options; }
    const DotWriterOptions &dotOptions() const { return m_dotOptions; }

    /// Starts laying out `model` with `expansion` (only inside `rootGroup` when >= 0); returns
    /// the request's generation. Reported asynchronously, also when every group was cached.
    quint64 request(
        std::shared_ptr<const GraphModel> model, const GroupExpansion &expansion, int rootGroup = -1);
    /// Drops the current request: its result is not reported.
    void cancel();
    bool isBusy() const { return m_busy; }
    quint64 generation() const { return m_generation; }

    /// Lays out on the Graphviz thread and waits (pirscope-cli, benchmarks, whole-graph export).
    std::shared_ptr<const GraphLayout> layoutNow(std::shared_ptr<const GraphModel> model,
        const GroupExpansion &expansion, int rootGroup, QString *error);
    /// One DOT text laid out as it is, waiting (the flat layout of a whole graph, tests).
    std::shared_ptr<const LayoutResult> layoutDotNow(const QByteArray &dot, QString *error);
    /// Forgets every cached group layout, before the next request (cold benchmarks).
    void clearCache();

signals:
    void started(quint64 generation);
    /// `done` of `total` group layouts finished.
    void progress(quint64 generation, int done, int total);
    void finished(quint64 generation, std::shared_ptr<const ps::GraphLayout> layout);
    void failed(quint64 generation, const QString &message);
    void canceled(quint64 generation);

private:
    void deliver(quint64 generation, std::shared_ptr<const GraphLayout> layout, const QString &error);

    std::unique_ptr<GraphvizThread> m_thread;
    std::shared_ptr<GroupLayoutEngine> m_engine; ///< used on the Graphviz thread only
    std::shared_ptr<std::atomic<quint64>> m_minGeneration; ///< older jobs stop
    GraphStyle m_style;
    DotWriterOptions m_dotOptions;
    quint64 m_generation = 0;
    bool m_busy = false;
};

} // namespace ps
