#pragma once

#include "ui/layoutresult.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <memory>

namespace ps {

class GraphvizThread;

/// Asynchronous `dot` layout for the UI thread. Every request gets a generation number; only
/// the result of the newest request is reported, and cancel() drops the running one. Results
/// are cached by a hash of the DOT text (the DOT writer is deterministic, so reopening a view
/// is instant). All Graphviz work happens on one GraphvizThread.
class GraphvizLayout : public QObject
{
    Q_OBJECT

public:
    explicit GraphvizLayout(QObject *parent = nullptr);
    ~GraphvizLayout() override;

    /// Starts laying out `dot`; returns the request's generation. A cached layout is still
    /// reported asynchronously (through the event loop), like a computed one.
    quint64 request(const QByteArray &dot);
    /// Drops the current request: its result is neither reported nor cached. A running
    /// gvLayout still finishes on the Graphviz thread (it cannot be interrupted).
    void cancel();
    bool isBusy() const { return m_busy; }
    quint64 generation() const { return m_generation; }
    /// Number of layouts kept; the least recently used is evicted first.
    void setCacheCapacity(int capacity) { m_cacheCapacity = qMax(0, capacity); }
    static QByteArray contentHash(const QByteArray &dot);

signals:
    void started(quint64 generation);
    void finished(quint64 generation, std::shared_ptr<const ps::LayoutResult> result, bool fromCache);
    void failed(quint64 generation, const QString &message);
    void canceled(quint64 generation);

private:
    void deliver(quint64 generation, std::shared_ptr<LayoutResult> result, const QString &error);
    void remember(const QByteArray &hash, std::shared_ptr<const LayoutResult> result);

    std::unique_ptr<GraphvizThread> m_thread;
    quint64 m_generation = 0;
    bool m_busy = false;
    QByteArray m_currentHash; ///< DOT hash of the newest request
    QHash<QByteArray, std::shared_ptr<const LayoutResult>> m_cache;
    QList<QByteArray> m_cacheOrder; ///< most recently used last
    int m_cacheCapacity = 8;
};

} // namespace ps
