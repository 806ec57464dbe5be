#include "ui/render/graphvizthread.h"

#include "ui/render/dotcounterguard.h"

#include <QElapsedTimer>
#include <QMutexLocker>
#include <QSemaphore>
#include <gvc.h>

namespace ps {

namespace {

/// Serialises every Graphviz call in the process: each GraphView has its own GraphvizThread
/// (the split view shows two graphs), but layouts share global state and must not overlap.
QMutex &graphvizMutex()
{
    static QMutex mutex;
    return mutex;
}

/// Graphviz error text of the current job; only touched under graphvizMutex().
QString s_graphvizErrors;

int collectGraphvizError(char *message)
{
    s_graphvizErrors += QString::fromUtf8(message);
    return 0;
}

/// Graphviz's y axis points up from the bottom-left corner; Qt's points down.
struct Flip
{
    double top;
    QPointF operator()(pointf p) const { return QPointF(p.x, top - p.y); }
};

LayoutResult::Edge toEdge(const splines *spl, const Flip &flip)
{
    LayoutResult::Edge edge;
    if (!spl)
        return edge; // splines=none
    for (int i = 0; i < spl->size; ++i) {
        const bezier &bz = spl->list[i];
        if (bz.size < 1)
            continue;
        edge.path.moveTo(flip(bz.list[0]));
        for (int j = 1; j + 2 < bz.size; j += 3)
            edge.path.cubicTo(flip(bz.list[j]), flip(bz.list[j + 1]), flip(bz.list[j + 2]));
        if (bz.eflag) {
            edge.arrowBase = flip(bz.list[bz.size - 1]);
            edge.arrowTip = flip(bz.ep);
            edge.hasArrow = true;
        }
    }
    edge.valid = !edge.path.isEmpty();
    return edge;
}

/// "n12" → 12 for prefix 'n'; -1 when the name does not have that form.
long parseId(const char *name, const char *prefix)
{
    size_t len = qstrlen(prefix);
    if (!name || qstrncmp(name, prefix, len) != 0 || name[len] == '\0')
        return -1;
    char *end = nullptr;
    long id = std::strtol(name + len, &end, 10);
    return *end == '\0' && id >= 0 ? id : -1;
}

template<class T> T &slot(std::vector<T> &v, long id)
{
    if (size_t(id) >= v.size())
        v.resize(size_t(id) + 1);
    return v[size_t(id)];
}

void collectClusters(Agraph_t *g, const Flip &flip, LayoutResult &out)
{
    for (Agraph_t *sub = agfstsubg(g); sub; sub = agnxtsubg(sub)) {
        long id = parseId(agnameof(sub), "cluster_");
        if (id >= 0) {
            boxf bb = GD_bb(sub);
            slot(out.clusters, id) = QRectF(flip(bb.UR), flip(bb.LL)).normalized();
        }
        collectClusters(sub, flip, out);
    }
}

} // namespace

GraphvizThread::GraphvizThread(QObject *parent)
    : QThread(parent)
{
    setObjectName(QStringLiteral("graphviz"));
    setStackSize(256u << 20);
}

GraphvizThread::~GraphvizThread()
{
    {
        QMutexLocker lock(&m_mutex);
        m_stop = true;
        m_jobs.clear();
    }
    m_wake.wakeAll();
    wait();
}

void GraphvizThread::enqueue(Job job, bool replaceable)
{
    {
        QMutexLocker lock(&m_mutex);
        if (replaceable)
            while (!m_jobs.empty() && m_jobs.back().replaceable)
                m_jobs.pop_back();
        m_jobs.push_back({ std::move(job), replaceable });
    }
    m_wake.wakeAll();
    if (!isRunning())
        start();
}

void GraphvizThread::submit(Job job)
{
    enqueue(std::move(job), true);
}

void GraphvizThread::runAndWait(Job job)
{
    auto done = std::make_shared<QSemaphore>();
    enqueue(
        [job = std::move(job), done](void *gvc) {
            job(gvc);
            done->release();
        },
        false);
    done->acquire();
}

void GraphvizThread::run()
{
    GVC_t *gvc = nullptr;
    {
        QMutexLocker lock(&graphvizMutex());
        gvc = gvContext();
    }
    for (;;) {
        Job job;
        {
            QMutexLocker lock(&m_mutex);
            while (m_jobs.empty() && !m_stop)
                m_wake.wait(&m_mutex);
            if (m_stop)
                break;
            job = std::move(m_jobs.front().job);
            m_jobs.pop_front();
        }
        job(gvc);
    }
    QMutexLocker lock(&graphvizMutex());
    gvFreeContext(gvc);
}

std::shared_ptr<LayoutResult> GraphvizThread::layout(void *context, const QByteArray &dot, QString *error)
{
    QMutexLocker lock(&graphvizMutex());
    QElapsedTimer timer;
    timer.start();
    GVC_t *gvc = static_cast<GVC_t *>(context);
    s_graphvizErrors.clear();
    agseterr(AGERR);
    agseterrf(collectGraphvizError);
    agreseterrors();

    Agraph_t *g = agmemread(dot.constData());
    if (!g || agerrors() > 0) {
        *error = s_graphvizErrors.isEmpty() ? QStringLiteral("Graphviz could not parse the DOT text")
                                            : s_graphvizErrors.trimmed();
        if (g)
            agclose(g);
        return nullptr;
    }
    DotCounterGuard::beforeLayout(gvc);
    if (gvLayout(gvc, g, "dot") != 0) {
        *error = s_graphvizErrors.isEmpty() ? QStringLiteral("Graphviz layout failed")
                                            : s_graphvizErrors.trimmed();
        agclose(g);
        return nullptr;
    }

    auto result = std::make_shared<LayoutResult>();
    boxf bb = GD_bb(g);
    Flip flip { bb.UR.y };
    result->bounds = QRectF(flip(bb.UR), flip(bb.LL)).normalized();
    char idAttr[] = "id";
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n)) {
        const char *name = agnameof(n);
        const QPointF c = flip(ND_coord(n));
        const double w = ND_width(n) * 72, h = ND_height(n) * 72;
        const QRectF box(c.x() - w / 2, c.y() - h / 2, w, h);
        if (long id = parseId(name, "n"); id >= 0)
            result->nodes[id] = box;
        else if (long group = parseId(name, "g"); group >= 0)
            result->groups[group] = box;
        else if (long entry = parseId(name, "pi"); entry >= 0)
            slot(result->entryPorts, entry) = c;
        else if (long exit = parseId(name, "po"); exit >= 0)
            slot(result->exitPorts, exit) = c;
        for (Agedge_t *e = agfstout(g, n); e; e = agnxtout(g, e)) {
            long edgeId = parseId(agget(e, idAttr), "e");
            if (edgeId >= 0) {
                slot(result->edges, edgeId) = toEdge(ED_spl(e), flip);
                continue;
            }
            long cluster = parseId(agnameof(aghead(e)), "a");
            if (cluster >= 0)
                slot(result->clusterEdges, cluster) = toEdge(ED_spl(e), flip);
        }
    }
    collectClusters(g, flip, *result);
    gvFreeLayout(gvc, g);
    agclose(g);
    result->seconds = timer.nsecsElapsed() / 1e9;
    return result;
}

} // namespace ps
