#pragma once

#include "core/graph/graphmodel.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Program;

/// Finds graph nodes by text, with the Ops list's rule: a query starting with `%` matches nodes
/// whose op has exactly that id among its results or operands (`%12`, `%arg_0`); any other text
/// matches, case-insensitively as a substring, the op name, the value names and ids of its
/// results, its label lines and its layer path (`struct_name`). A ghost chip matches by the
/// value it stands for, so a parameter's name finds every chip of it. Nodes inside collapsed
/// groups are found too: the view opens them.
class GraphSearch
{
public:
    /// `program` is the one the model was built from (value ids are numbered over it). O(nodes
    /// + operands); the strings are kept for repeated queries.
    GraphSearch(const GraphModel &model, const Program &program);

    /// Matching node ids in ascending order (program order); empty for an empty query.
    std::vector<int> find(std::string_view query) const;

private:
    struct Entry
    {
        std::string text; ///< lower case, fields separated by '\n'
        std::vector<std::string> ids;
    };
    std::vector<Entry> m_entries; ///< by node id
};

} // namespace ps
