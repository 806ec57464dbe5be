#include "ui/render/graphvizlayout.h"

#include "ui/render/graphvizthread.h"
#include "ui/render/grouplayoutengine.h"

#include <QPointer>

namespace ps {

GraphvizLayout::GraphvizLayout(QObject *parent)
    : QObject(parent)
    , m_thread(std::make_unique<GraphvizThread>())
    , m_engine(std::make_shared<GroupLayoutEngine>())
    , m_minGeneration(std::make_shared<std::atomic<quint64>>(0))
{
}

GraphvizLayout::~GraphvizLayout()
{
    m_minGeneration->store(~quint64(0)); // a running job stops at its next group
    m_thread.reset();
}

quint64 GraphvizLayout::request(
    std::shared_ptr<const GraphModel> model, const GroupExpansion &expansion, int rootGroup)
{
    const quint64 generation = ++m_generation;
    m_minGeneration->store(generation);
    m_busy = true;
    emit started(generation);
    GroupLayoutEngine::Request request { std::move(model), expansion, rootGroup, m_style, m_dotOptions };
    QPointer<GraphvizLayout> self(this);
    auto engine = m_engine;
    auto minGeneration = m_minGeneration;
    m_thread->submit([self, engine, minGeneration, generation, request = std::move(request)](void *gvc) {
        auto stale = [&] { return minGeneration->load() > generation; };
        if (stale())
            return;
        auto report = [self, generation](int done, int total) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, generation, done, total] {
                    if (self && self->m_generation == generation && self->m_busy)
                        emit self->progress(generation, done, total);
                },
                Qt::QueuedConnection);
        };
        QString error;
        std::shared_ptr<const GraphLayout> layout = engine->layout(gvc, request, stale, report, &error);
        if (stale())
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, layout, error] {
                if (self)
                    self->deliver(generation, layout, error);
            },
            Qt::QueuedConnection);
    });
    return generation;
}

void GraphvizLayout::cancel()
{
    if (!m_busy)
        return;
    const quint64 old = m_generation++;
    m_minGeneration->store(m_generation);
    m_busy = false;
    emit canceled(old);
}

void GraphvizLayout::deliver(
    quint64 generation, std::shared_ptr<const GraphLayout> layout, const QString &error)
{
    if (generation != m_generation || !m_busy)
        return; // superseded or canceled
    m_busy = false;
    if (layout)
        emit finished(generation, std::move(layout));
    else
        emit failed(generation, error.isEmpty() ? tr("Graphviz layout failed") : error);
}

std::shared_ptr<const GraphLayout> GraphvizLayout::layoutNow(
    std::shared_ptr<const GraphModel> model, const GroupExpansion &expansion, int rootGroup, QString *error)
{
    GroupLayoutEngine::Request request { std::move(model), expansion, rootGroup, m_style, m_dotOptions };
    std::shared_ptr<const GraphLayout> layout;
    QString message;
    auto engine = m_engine;
    m_thread->runAndWait(
        [&](void *gvc) { layout = engine->layout(gvc, request, nullptr, nullptr, &message); });
    if (!layout && error)
        *error = message;
    return layout;
}

std::shared_ptr<const LayoutResult> GraphvizLayout::layoutDotNow(const QByteArray &dot, QString *error)
{
    std::shared_ptr<const LayoutResult> result;
    m_thread->runAndWait([&](void *gvc) { result = GraphvizThread::layout(gvc, dot, error); });
    return result;
}

void GraphvizLayout::clearCache()
{
    auto engine = m_engine;
    m_thread->runAndWait([engine](void *) { engine->clearCache(); });
}

} // namespace ps
