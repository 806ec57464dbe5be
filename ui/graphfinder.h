#pragma once

#include <QObject>
#include <memory>
#include <vector>

namespace ps {

class GraphSearch;
class GraphSearchBar;
class GraphView;

/// Finding in a graph view: indexes the view's model on the first query (GraphSearch), marks
/// every match in the scene, counts them, and goes to the next or previous one: its layers
/// opened, the view zoomed to a readable size around it, and it selected as a click would, so
/// every panel follows.
class GraphFinder : public QObject
{
    Q_OBJECT

public:
    explicit GraphFinder(GraphView *view);
    ~GraphFinder() override;

    GraphSearchBar *bar() const { return m_bar; }
    /// Shows the bar, focused.
    void open();
    void setQuery(const QString &query);
    void next();
    void previous();
    /// Matching node ids, in program order.
    const std::vector<int> &matches() const { return m_matches; }
    /// Index of the match gone to last; -1 before the first.
    int current() const { return m_current; }
    /// Forgets the index and the matches (a new model is shown); the query stays.
    void reset();

private:
    void go(int index);
    void close();

    GraphView *m_view;
    GraphSearchBar *m_bar;
    std::unique_ptr<GraphSearch> m_search;
    const void *m_indexed = nullptr; ///< the model m_search indexes
    std::vector<int> m_matches;
    int m_current = -1;
};

} // namespace ps
