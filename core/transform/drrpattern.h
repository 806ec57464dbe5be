#pragma once

#include "core/ir/type.h"
#include "core/ir/value.h"
#include "core/transform/drrpatterngraph.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ps {

class DrrMatch;

/// A declarative rewrite rule in the style of Paddle's DRR (`drr::DrrPatternBase`): a source
/// graph of ops over named tensors, constraints on what matched, and a result graph whose
/// output tensors replace the source tensors of the same name (or `assign` one tensor to
/// another). DrrRewritePattern matches and applies it with Paddle's semantics.
///
/// Write the source and result ops in the order Paddle's pattern creates them: that order (and
/// the tensor names) decide the order in which independent result ops are created.
class DrrPattern
{
public:
    using Constraint = std::function<bool(const DrrMatch &)>;
    /// Result types of a result op from the match and its operands.
    using TypeRule = std::function<std::vector<Type>(const DrrMatch &, const std::vector<Value> &operands)>;

    DrrPattern(std::string name, unsigned benefit = 1);

    /// A source op. `inputs`/`outputs` are tensor names (DrrPatternGraph::kSourceInputNone for
    /// an absent optional operand); `attributes` binds op attributes (first) to pattern
    /// attribute names (second). An op without one of them does not match.
    DrrPattern &source(std::string op, std::vector<std::string> inputs, std::vector<std::string> outputs,
        std::vector<std::pair<std::string, std::string>> attributes = {});
    DrrPattern &constraint(Constraint constraint);
    /// A result op. Without a type rule each output takes the type of the source tensor of the
    /// same name.
    DrrPattern &result(std::string op, std::vector<std::string> inputs, std::vector<std::string> outputs,
        std::vector<DrrAttribute> attributes = {}, TypeRule types = {});
    /// The source tensor `from` is replaced by the tensor `to` (Paddle's `Tensor::Assign`).
    DrrPattern &assign(const std::string &from, const std::string &to);

    const std::string &name() const { return m_name; }
    unsigned benefit() const { return m_benefit; }
    const DrrPatternGraph &sourceGraph() const { return m_source; }
    const DrrPatternGraph &resultGraph() const { return m_result; }
    const std::vector<Constraint> &constraints() const { return m_constraints; }
    /// The type rule of result op `index` (empty for the default).
    const TypeRule &typeRule(size_t index) const { return m_typeRules[index]; }

private:
    std::string m_name;
    unsigned m_benefit;
    DrrPatternGraph m_source;
    DrrPatternGraph m_result;
    std::vector<Constraint> m_constraints;
    std::vector<TypeRule> m_typeRules;
};

/// Source attribute bindings that keep each attribute's name: {{n, n}, ...}.
std::vector<std::pair<std::string, std::string>> drrSameNames(std::initializer_list<const char *> names);
/// Result attributes passing each named source attribute through unchanged.
std::vector<DrrAttribute> drrSourceAttrs(std::initializer_list<const char *> names);

/// A result attribute that passes the source attribute `source` through.
DrrAttribute drrSourceAttr(std::string name, std::string source);
/// A result attribute with a fixed value.
DrrAttribute drrConstAttr(std::string name, Attribute value);
/// A result attribute computed from the match.
DrrAttribute drrComputedAttr(std::string name, std::function<Attribute(const DrrMatch &)> compute);

} // namespace ps
