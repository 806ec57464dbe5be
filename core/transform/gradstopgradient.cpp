#include "core/transform/gradstopgradient.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"

#include <algorithm>
#include <optional>

namespace ps {

namespace {

std::optional<bool> explicitFlag(Value value);

/// The explicit flag of an op result, or nullopt.
std::optional<bool> resultFlag(Value value)
{
    const Operation *op = value.definingOp();
    if (const Attribute *a = op->attribute("stop_gradient"); a && a->kind() == Attribute::Kind::Array) {
        const auto &elements = a->asArray();
        if (value.index() < elements.size() && elements[value.index()].kind() == Attribute::Kind::Bool)
            return elements[value.index()].asBool();
        return std::nullopt;
    }
    if (ops::isWhile(*op) && value.index() + 1 < op->numOperands()) {
        // WhileOp::Build: the operand's flag, false when it has none.
        return explicitFlag(op->operand(value.index() + 1)).value_or(false);
    }
    return std::nullopt;
}

/// The flag of a block argument or kwarg: its own `stop_gradient` attribute, else (a program read
/// from JSON, which does not keep block-argument attributes) for a while body's argument what
/// WhileOp::Build gives it; nullopt otherwise.
std::optional<bool> argumentFlag(Value value)
{
    Block *block = value.parentBlock();
    if (!block)
        return std::nullopt;
    for (const NamedAttribute &a : block->valueAttributes(value))
        if (a.name == "stop_gradient" && a.value.kind() == Attribute::Kind::Bool)
            return a.value.asBool();
    Operation *parent = block->parentOp();
    if (!parent || !ops::isWhile(*parent) || !value.isBlockArgument()
        || value.index() + 1 >= parent->numOperands())
        return std::nullopt;
    return explicitFlag(parent->operand(value.index() + 1)).value_or(false);
}

std::optional<bool> explicitFlag(Value value)
{
    if (value.isNull())
        return std::nullopt;
    if (value.isOpResult())
        return resultFlag(value);
    return argumentFlag(value);
}

} // namespace

std::optional<bool> explicitStopGradient(Value value)
{
    return explicitFlag(value);
}

bool valueStopGradient(Value value)
{
    if (value.isNull())
        return true;
    return explicitFlag(value).value_or(true);
}

bool hasExplicitFalseStopGradient(Value value)
{
    if (value.isNull())
        return false;
    const auto flag = explicitFlag(value);
    return flag.has_value() && !*flag;
}

bool stopGradientOf(Value value)
{
    const Operation *def = value.definingOp();
    const Attribute *a = def ? def->attribute("stop_gradient") : nullptr;
    if (!a || a->kind() != Attribute::Kind::Array || value.index() >= a->asArray().size())
        return true;
    const Attribute &flag = a->asArray()[value.index()];
    return flag.kind() != Attribute::Kind::Bool || flag.asBool();
}

void setValueStopGradient(Value value, bool flag)
{
    if (value.isNull())
        return;
    Operation *op = value.definingOp();
    if (!op) {
        // A block argument or kwarg: its own attribute, as Paddle's Value::set_attribute.
        Block *block = value.parentBlock();
        std::vector<NamedAttribute> attributes = block->valueAttributes(value);
        auto it = std::find_if(attributes.begin(), attributes.end(),
            [](const NamedAttribute &a) { return a.name == "stop_gradient"; });
        if (it == attributes.end())
            attributes.push_back({ "stop_gradient", Attribute::boolean(flag) });
        else
            it->value = Attribute::boolean(flag);
        block->setValueAttributes(value, std::move(attributes));
        return;
    }
    std::vector<Attribute> elements;
    if (const Attribute *a = op->attribute("stop_gradient"); a && a->kind() == Attribute::Kind::Array)
        elements = a->asArray();
    elements.resize(op->numResults());
    elements[value.index()] = Attribute::boolean(flag);
    op->setAttribute("stop_gradient", Attribute::array(std::move(elements)));
}

} // namespace ps
