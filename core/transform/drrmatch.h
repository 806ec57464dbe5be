#pragma once

#include "core/ir/attribute.h"
#include "core/ir/value.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class Operation;

/// What a DRR source pattern bound when it matched (Paddle's `drr::MatchContext`): IR values by
/// pattern tensor name, attributes by pattern attribute name, IR ops by source op index.
/// Constraints and computed result attributes read it. The typed getters throw std::logic_error
/// for a name the pattern never binds (a bug in the pattern, not in the program).
class DrrMatch
{
public:
    bool hasTensor(std::string_view name) const;
    Value tensor(std::string_view name) const;
    const Attribute &attr(std::string_view name) const;
    Operation *op(size_t sourceOpIndex) const { return m_ops.at(sourceOpIndex); }

    bool boolAttr(std::string_view name) const { return attr(name).asBool(); }
    int64_t intAttr(std::string_view name) const { return attr(name).asInt(); }
    double doubleAttr(std::string_view name) const { return attr(name).asDouble(); }
    /// The attribute narrowed to float, as Paddle's `Attr<float>` reads Float and Double attributes.
    float floatAttr(std::string_view name) const { return float(attr(name).asDouble()); }
    const std::string &stringAttr(std::string_view name) const { return attr(name).asString(); }
    /// IntArray or an Array of integers.
    std::vector<int64_t> intsAttr(std::string_view name) const;
    DataType dtypeAttr(std::string_view name) const { return attr(name).asDataType(); }

    /// Static dims of a bound tensor's type (empty for a null value).
    std::vector<int64_t> shape(std::string_view tensorName) const;
    /// Element type of a bound tensor's type (Undefined for a null value).
    DataType dtype(std::string_view tensorName) const;

    /// First binding wins, as Paddle's `emplace`.
    void bindTensor(const std::string &name, Value value) { m_tensors.emplace(name, value); }
    void bindAttr(const std::string &name, const Attribute &value) { m_attrs.emplace(name, value); }
    void bindOp(size_t sourceOpIndex, Operation *op);
    const std::unordered_map<std::string, Value> &tensors() const { return m_tensors; }

private:
    std::unordered_map<std::string, Value> m_tensors;
    std::unordered_map<std::string, Attribute> m_attrs;
    std::vector<Operation *> m_ops;
};

} // namespace ps
