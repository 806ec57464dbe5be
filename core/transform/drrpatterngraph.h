#pragma once

#include "core/ir/attribute.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ps {

class DrrMatch;

/// An attribute of a DRR op call. In a source op it names the pattern attribute the op's
/// attribute binds to (`source`). In a result op it is either a source attribute passed through
/// (`source`) or computed from the match (`compute`).
struct DrrAttribute
{
    std::string name; ///< the op's attribute name
    std::string source; ///< pattern attribute name, or empty when computed
    std::function<Attribute(const DrrMatch &)> compute;
};

/// One op of a DRR graph: an op name, input and output tensor names.
struct DrrOpCall
{
    std::string name;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::vector<DrrAttribute> attributes;
};

/// A DRR source or result graph, kept the way Paddle's `drr::PatternGraph` keeps it: tensors by
/// name with their producer and consumers, the input tensors (consumed, never produced) and the
/// output tensors (never consumed) in hash sets. The order the sets iterate in is part of
/// Paddle's behaviour (it orders result ops that have no dependency between them), so they are
/// the same std::unordered_set<std::string>, filled in the same order as Paddle fills them.
class DrrPatternGraph
{
public:
    static constexpr const char *kSourceInputNone = "__@source_input_none_tensor@__";
    static constexpr const char *kSourceOutputNone = "__@source_output_none_tensor@__";
    static constexpr const char *kResultInputNone = "__@result_input_none_tensor@__";
    static constexpr const char *kResultOutputNone = "__@result_output_none_tensor@__";
    static bool isNone(const std::string &tensor);

    struct Tensor
    {
        int producer = -1; ///< op call index, -1 for an input
        std::vector<int> consumers; ///< consuming op calls, each once
    };

    /// Registers a tensor name (Paddle's AddTensor): new names start as outputs.
    void addTensor(const std::string &name);
    /// Adds an op call; its tensors must have been added. Returns its index.
    int addOpCall(DrrOpCall call);
    /// `from` takes the value of `to` (Paddle's ResultPatternGraph::AssignTensor).
    void assignTensor(const std::string &from, const std::string &to);

    const std::vector<DrrOpCall> &opCalls() const { return m_opCalls; }
    bool hasTensor(const std::string &name) const { return m_tensors.count(name) != 0; }
    const Tensor &tensor(const std::string &name) const { return m_tensors.at(name); }
    const std::unordered_set<std::string> &inputTensors() const { return m_inputs; }
    const std::unordered_set<std::string> &outputTensors() const { return m_outputs; }
    /// from → to of assignTensor().
    const std::unordered_map<std::string, std::string> &assignments() const { return m_assignments; }

    /// Ops whose outputs all are output tensors (Paddle's OutputNodes), in output-set order.
    std::vector<int> outputNodes() const;
    /// Op call indices in Paddle's topological order: ops without inputs first, then as their
    /// inputs become available, starting from the input tensors in set order.
    std::vector<int> topologicalOrder() const;

private:
    std::vector<DrrOpCall> m_opCalls;
    std::unordered_map<std::string, Tensor> m_tensors;
    std::unordered_set<std::string> m_inputs;
    std::unordered_set<std::string> m_outputs;
    std::unordered_map<std::string, std::string> m_assignments;
};

} // namespace ps
