#include "core/graph/graphsearch.h"

#include "core/analysis/valuenames.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

#include <algorithm>
#include <cctype>

namespace ps {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

} // namespace

GraphSearch::GraphSearch(const GraphModel &model, const Program &program)
    : m_entries(model.nodes.size())
{
    const ValueNumbering numbering(program);
    auto addValue = [&numbering](Entry &e, Value v, bool withNames) {
        std::string id = numbering.name(v);
        e.text += '\n' + id;
        e.ids.push_back(std::move(id));
        if (withNames)
            for (const std::string &name : ValueNames::allNameStrings(v))
                e.text += '\n' + name;
    };
    for (const GraphNode &n : model.nodes) {
        Entry &e = m_entries[size_t(n.id)];
        for (const std::string &line : n.lines)
            e.text += line + '\n';
        if (n.ghost || !n.op) {
            if (n.value) // a chip is found by its value, not by its producer's op name
                addValue(e, n.value, true);
        } else {
            e.text += std::string(n.op->name()) + '\n' + n.op->stringAttribute("struct_name");
            for (unsigned i = 0; i < n.op->numResults(); ++i)
                addValue(e, n.op->result(i), true);
            for (unsigned i = 0; i < n.op->numOperands(); ++i)
                if (Value v = n.op->operand(i))
                    e.ids.push_back(numbering.name(v));
        }
        e.text = lower(e.text);
    }
}

std::vector<int> GraphSearch::find(std::string_view query) const
{
    std::vector<int> found;
    if (query.empty())
        return found;
    if (query.front() == '%') {
        for (size_t i = 0; i < m_entries.size(); ++i) {
            const std::vector<std::string> &ids = m_entries[i].ids;
            if (std::find(ids.begin(), ids.end(), query) != ids.end())
                found.push_back(int(i));
        }
        return found;
    }
    const std::string needle = lower(query);
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].text.find(needle) != std::string::npos)
            found.push_back(int(i));
    return found;
}

} // namespace ps
