#pragma once

#include "ui/layoutresult.h"

#include <QByteArray>
#include <QMutex>
#include <QThread>
#include <QWaitCondition>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace ps {

/// A thread that talks to Graphviz for one GraphvizLayout. It owns its GVC_t and performs
/// every ag* / gv* call of its jobs under one process-wide mutex: libcgraph is not thread safe
/// and layout uses process-global state, so two layouts must never run at once anywhere in
/// the process (several views queue behind each other). Runs with a 256 MiB stack because the
/// network simplex of Graphviz 2.42 recurses per node.
///
/// Jobs are single-slot: a newer submit() replaces a job that has not started. A running
/// gvLayout cannot be interrupted; discardBefore() makes its result (and any queued older
/// job) be dropped instead of delivered.
class GraphvizThread : public QThread
{
public:
    /// Called on this thread when a job ends: the result, or null and an error message.
    using Delivery = std::function<void(quint64 generation, std::shared_ptr<LayoutResult>, QString error)>;

    explicit GraphvizThread(Delivery delivery, QObject *parent = nullptr);
    /// Stops after the running layout (if any) and joins.
    ~GraphvizThread() override;

    void submit(quint64 generation, QByteArray dot);
    /// Results of generations older than `generation` are not delivered.
    void discardBefore(quint64 generation) { m_minGeneration.store(generation); }

    /// Parses and lays out one DOT text with engine "dot". Must run on the Graphviz thread.
    static std::shared_ptr<LayoutResult> layout(void *gvc, const QByteArray &dot, QString *error);

protected:
    void run() override;

private:
    struct Job
    {
        quint64 generation;
        QByteArray dot;
    };

    Delivery m_delivery;
    QMutex m_mutex;
    QWaitCondition m_wake;
    std::optional<Job> m_pending;
    bool m_stop = false;
    std::atomic<quint64> m_minGeneration { 0 };
};

} // namespace ps
