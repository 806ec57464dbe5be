#include "ui/graphvizlayout.h"

#include "ui/graphvizthread.h"

#include <QCryptographicHash>
#include <QPointer>

namespace ps {

GraphvizLayout::GraphvizLayout(QObject *parent)
    : QObject(parent)
{
    QPointer<GraphvizLayout> self(this);
    m_thread = std::make_unique<GraphvizThread>(
        [self](quint64 generation, std::shared_ptr<LayoutResult> result, QString error) {
            // Runs on the Graphviz thread: hop to this object's thread.
            QMetaObject::invokeMethod(
                self.data(),
                [self, generation, result = std::move(result), error]() mutable {
                    if (self)
                        self->deliver(generation, std::move(result), error);
                },
                Qt::QueuedConnection);
        });
}

GraphvizLayout::~GraphvizLayout() = default;

QByteArray GraphvizLayout::contentHash(const QByteArray &dot)
{
    return QCryptographicHash::hash(dot, QCryptographicHash::Sha1);
}

quint64 GraphvizLayout::request(const QByteArray &dot)
{
    const quint64 generation = ++m_generation;
    m_thread->discardBefore(generation);
    const QByteArray hash = contentHash(dot);
    m_currentHash = hash;
    m_busy = true;
    emit started(generation);
    if (auto it = m_cache.constFind(hash); it != m_cache.constEnd()) {
        std::shared_ptr<const LayoutResult> cached = *it;
        QMetaObject::invokeMethod(
            this,
            [this, generation, hash, cached] {
                if (generation != m_generation)
                    return;
                remember(hash, cached);
                m_busy = false;
                emit finished(generation, cached, true);
            },
            Qt::QueuedConnection);
        return generation;
    }
    m_thread->submit(generation, dot);
    return generation;
}

void GraphvizLayout::cancel()
{
    if (!m_busy)
        return;
    const quint64 old = m_generation++;
    m_thread->discardBefore(m_generation);
    m_busy = false;
    emit canceled(old);
}

void GraphvizLayout::deliver(quint64 generation, std::shared_ptr<LayoutResult> result, const QString &error)
{
    if (generation != m_generation)
        return; // superseded or canceled
    if (result)
        remember(m_currentHash, result);
    m_busy = false;
    if (result)
        emit finished(generation, std::move(result), false);
    else
        emit failed(generation, error);
}

void GraphvizLayout::remember(const QByteArray &hash, std::shared_ptr<const LayoutResult> result)
{
    if (m_cacheCapacity == 0)
        return;
    m_cacheOrder.removeOne(hash);
    m_cacheOrder.append(hash);
    m_cache.insert(hash, std::move(result));
    while (m_cacheOrder.size() > m_cacheCapacity)
        m_cache.remove(m_cacheOrder.takeFirst());
}

} // namespace ps
