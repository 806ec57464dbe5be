#include "ui/graphfinder.h"

#include "core/graph/graphsearch.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "ui/graphscene.h"
#include "ui/graphsearchbar.h"
#include "ui/graphview.h"

#include <QLineEdit>

namespace ps {

namespace {

const Program *programOf(const GraphModel &model)
{
    for (const GraphNode &n : model.nodes)
        if (n.op && n.cluster < 0 && n.op->parentBlock())
            return n.op->parentBlock()->program();
    return nullptr;
}

} // namespace

GraphFinder::GraphFinder(GraphView *view)
    : QObject(view)
    , m_view(view)
    , m_bar(new GraphSearchBar(view))
{
    connect(m_bar, &GraphSearchBar::queryChanged, this, &GraphFinder::setQuery);
    connect(m_bar, &GraphSearchBar::nextRequested, this, &GraphFinder::next);
    connect(m_bar, &GraphSearchBar::previousRequested, this, &GraphFinder::previous);
    connect(m_bar, &GraphSearchBar::closed, this, &GraphFinder::close);
}

GraphFinder::~GraphFinder() = default;

void GraphFinder::open()
{
    m_bar->open();
    if (!m_bar->query().isEmpty())
        setQuery(m_bar->query());
}

void GraphFinder::reset()
{
    m_search.reset();
    m_indexed = nullptr;
    m_matches.clear();
    m_current = -1;
    m_bar->setCount(-1, 0);
    if (m_bar->isVisible() && !m_bar->query().isEmpty())
        setQuery(m_bar->query());
}

void GraphFinder::setQuery(const QString &text)
{
    const GraphModel *model = m_view->graphScene()->model();
    const QString query = text.trimmed();
    if (m_bar->field()->text().trimmed() != query)
        m_bar->field()->setText(query);
    m_matches.clear();
    m_current = -1;
    if (model && !query.isEmpty()) {
        if (m_indexed != model) {
            const Program *program = programOf(*model);
            m_search = program ? std::make_unique<GraphSearch>(*model, *program) : nullptr;
            m_indexed = model;
        }
        if (m_search)
            m_matches = m_search->find(query.toStdString());
    }
    m_view->graphScene()->setMatches(m_matches);
    m_bar->setCount(m_current, int(m_matches.size()));
}

void GraphFinder::next()
{
    if (!m_matches.empty())
        go((m_current + 1) % int(m_matches.size()));
}

void GraphFinder::previous()
{
    if (!m_matches.empty())
        go(m_current <= 0 ? int(m_matches.size()) - 1 : m_current - 1);
}

void GraphFinder::go(int index)
{
    m_current = index;
    m_bar->setCount(m_current, int(m_matches.size()));
    m_view->revealNode(m_matches[size_t(index)], true, true);
}

void GraphFinder::close()
{
    m_matches.clear();
    m_current = -1;
    m_view->graphScene()->setMatches({});
    m_view->setFocus();
}

} // namespace ps
