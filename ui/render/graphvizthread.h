#pragma once

#include "ui/render/layoutresult.h"

#include <QByteArray>
#include <QMutex>
#include <QThread>
#include <QWaitCondition>
#include <deque>
#include <functional>
#include <memory>

namespace ps {

/// A thread that talks to Graphviz for one GraphvizLayout. It owns its GVC_t and runs jobs that
/// make every ag* / gv* call through layout(), under one process-wide mutex: libcgraph is not
/// thread safe and layout uses process-global state, so two layouts must never run at once
/// anywhere in the process (several views queue behind each other). Runs with a 256 MiB stack
/// because the network simplex of Graphviz 2.42 recurses per node.
///
/// A job submitted with submit() replaces one that has not started (the newest view request
/// wins); runAndWait() queues a job that is never replaced and blocks until it has run.
class GraphvizThread : public QThread
{
public:
    /// A job gets the thread's Graphviz context (a GVC_t *) to pass to layout().
    using Job = std::function<void(void *gvc)>;

    explicit GraphvizThread(QObject *parent = nullptr);
    /// Stops after the running job (if any) and joins.
    ~GraphvizThread() override;

    void submit(Job job);
    /// Runs `job` on this thread and waits for it; never call it from this thread.
    void runAndWait(Job job);

    /// Parses and lays out one DOT text with engine "dot". Must run on a Graphviz thread.
    static std::shared_ptr<LayoutResult> layout(void *gvc, const QByteArray &dot, QString *error);

protected:
    void run() override;

private:
    struct Queued
    {
        Job job;
        bool replaceable;
    };

    void enqueue(Job job, bool replaceable);

    QMutex m_mutex;
    QWaitCondition m_wake;
    std::deque<Queued> m_jobs;
    bool m_stop = false;
};

} // namespace ps
