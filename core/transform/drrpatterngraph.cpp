#include "core/transform/drrpatterngraph.h"

#include <algorithm>
#include <queue>
#include <stdexcept>

namespace ps {

bool DrrPatternGraph::isNone(const std::string &tensor)
{
    return tensor == kSourceInputNone || tensor == kSourceOutputNone || tensor == kResultInputNone
        || tensor == kResultOutputNone;
}

void DrrPatternGraph::addTensor(const std::string &name)
{
    if (m_tensors.emplace(name, Tensor {}).second)
        m_outputs.insert(name);
}

int DrrPatternGraph::addOpCall(DrrOpCall call)
{
    const int index = int(m_opCalls.size());
    for (const std::string &input : call.inputs) {
        auto it = m_tensors.find(input);
        if (it == m_tensors.end())
            throw std::logic_error("DRR: tensor '" + input + "' used before it was declared");
        // A set in Paddle: an op consuming a tensor twice counts once.
        if (std::find(it->second.consumers.begin(), it->second.consumers.end(), index)
            == it->second.consumers.end())
            it->second.consumers.push_back(index);
        if (it->second.producer < 0)
            m_inputs.insert(input);
        m_outputs.erase(input);
    }
    for (const std::string &output : call.outputs) {
        auto it = m_tensors.find(output);
        if (it == m_tensors.end())
            throw std::logic_error("DRR: tensor '" + output + "' used before it was declared");
        it->second.producer = index;
    }
    m_opCalls.push_back(std::move(call));
    return index;
}

void DrrPatternGraph::assignTensor(const std::string &from, const std::string &to)
{
    if (m_tensors.at(to).producer < 0)
        m_inputs.insert(to);
    m_outputs.erase(to);
    if (!m_outputs.count(from))
        throw std::logic_error("DRR: the assigned tensor '" + from + "' must be a result output");
    m_assignments[from] = to;
}

std::vector<int> DrrPatternGraph::outputNodes() const
{
    std::vector<int> nodes;
    for (const std::string &name : m_outputs) {
        const int producer = m_tensors.at(name).producer;
        if (producer < 0)
            continue;
        const auto &outputs = m_opCalls[size_t(producer)].outputs;
        const bool allOutputs = std::all_of(
            outputs.begin(), outputs.end(), [this](const std::string &o) { return m_outputs.count(o) != 0; });
        if (allOutputs && std::find(nodes.begin(), nodes.end(), producer) == nodes.end())
            nodes.push_back(producer);
    }
    return nodes;
}

std::vector<int> DrrPatternGraph::topologicalOrder() const
{
    std::queue<int> ready;
    std::unordered_map<int, std::unordered_set<std::string>> pending;
    for (size_t i = 0; i < m_opCalls.size(); ++i) {
        if (m_opCalls[i].inputs.empty())
            ready.push(int(i));
        for (const std::string &input : m_opCalls[i].inputs)
            pending[int(i)].insert(input);
    }
    for (const std::string &name : m_inputs) {
        for (int consumer : m_tensors.at(name).consumers) {
            pending[consumer].erase(name);
            if (pending[consumer].empty())
                ready.push(consumer);
        }
    }
    std::vector<int> order;
    while (!ready.empty()) {
        const int op = ready.front();
        ready.pop();
        order.push_back(op);
        for (const std::string &output : m_opCalls[size_t(op)].outputs) {
            for (int consumer : m_tensors.at(output).consumers) {
                pending[consumer].erase(output);
                if (pending[consumer].empty())
                    ready.push(consumer);
            }
        }
    }
    return order;
}

} // namespace ps
