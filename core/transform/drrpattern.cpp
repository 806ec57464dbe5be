#include "core/transform/drrpattern.h"

namespace ps {

DrrPattern::DrrPattern(std::string name, unsigned benefit)
    : m_name(std::move(name))
    , m_benefit(benefit)
{
}

DrrPattern &DrrPattern::source(std::string op, std::vector<std::string> inputs,
    std::vector<std::string> outputs, std::vector<std::pair<std::string, std::string>> attributes)
{
    for (const std::string &t : inputs)
        m_source.addTensor(t);
    for (const std::string &t : outputs)
        m_source.addTensor(t);
    DrrOpCall call { std::move(op), std::move(inputs), std::move(outputs), {} };
    for (auto &[irName, patternName] : attributes)
        call.attributes.push_back({ std::move(irName), std::move(patternName), {} });
    m_source.addOpCall(std::move(call));
    return *this;
}

DrrPattern &DrrPattern::constraint(Constraint constraint)
{
    m_constraints.push_back(std::move(constraint));
    return *this;
}

DrrPattern &DrrPattern::result(std::string op, std::vector<std::string> inputs,
    std::vector<std::string> outputs, std::vector<DrrAttribute> attributes, TypeRule types)
{
    for (const std::string &t : inputs)
        m_result.addTensor(t);
    for (const std::string &t : outputs)
        m_result.addTensor(t);
    m_result.addOpCall({ std::move(op), std::move(inputs), std::move(outputs), std::move(attributes) });
    m_typeRules.push_back(std::move(types));
    return *this;
}

DrrPattern &DrrPattern::assign(const std::string &from, const std::string &to)
{
    m_result.addTensor(from);
    m_result.addTensor(to);
    m_result.assignTensor(from, to);
    return *this;
}

std::vector<std::pair<std::string, std::string>> drrSameNames(std::initializer_list<const char *> names)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const char *n : names)
        out.push_back({ n, n });
    return out;
}

std::vector<DrrAttribute> drrSourceAttrs(std::initializer_list<const char *> names)
{
    std::vector<DrrAttribute> out;
    for (const char *n : names)
        out.push_back(drrSourceAttr(n, n));
    return out;
}

DrrAttribute drrSourceAttr(std::string name, std::string source)
{
    return { std::move(name), std::move(source), {} };
}

DrrAttribute drrConstAttr(std::string name, Attribute value)
{
    return { std::move(name), {}, [value](const DrrMatch &) { return value; } };
}

DrrAttribute drrComputedAttr(std::string name, std::function<Attribute(const DrrMatch &)> compute)
{
    return { std::move(name), {}, std::move(compute) };
}

} // namespace ps
