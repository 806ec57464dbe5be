#include "core/analysis/valuenames.h"

#include "core/dialect/ops.h"
#include "core/ir/operation.h"

#include <algorithm>

namespace ps {

namespace {

/// The string payload of a string attribute, or nullptr when absent or not a string.
const std::string *stringAttr(const Operation *op, std::string_view name)
{
    const Attribute *a = op->attribute(name);
    if (!a || a->kind() != Attribute::Kind::String)
        return nullptr;
    return &a->asString();
}

/// The name `user` gives the value it reads (shadow_output / set_parameter), else nullptr.
const std::string *outputNameOf(const Operation *user, NameSource &source)
{
    if (ops::isShadowOutput(*user)) {
        source = NameSource::ShadowOutput;
        return stringAttr(user, "output_name");
    }
    if (ops::isSetParameter(*user)) {
        source = NameSource::SetParameter;
        return stringAttr(user, "parameter_name");
    }
    return nullptr;
}

} // namespace

std::string_view nameSourceText(NameSource source)
{
    switch (source) {
    case NameSource::Data:
        return "data";
    case NameSource::Parameter:
        return "parameter";
    case NameSource::ShadowOutput:
        return "shadow_output";
    case NameSource::SetParameter:
        return "set_parameter";
    case NameSource::Kwarg:
        return "kwarg";
    case NameSource::BlockArg:
        return "block_arg";
    case NameSource::Constant:
        return "constant";
    }
    return "unknown";
}

std::optional<ValueName> ValueNames::inputName(Value value)
{
    if (value.isNull())
        return std::nullopt;
    if (value.isKeywordArgument())
        return ValueName { value.keyword(), NameSource::Kwarg, nullptr };
    if (value.isBlockArgument())
        return ValueName { "arg_" + std::to_string(value.index()), NameSource::BlockArg, nullptr };
    const Operation *op = value.definingOp();
    if (!op)
        return std::nullopt;
    const std::string_view name = op->name();
    if (name == ops::kParameter) {
        if (const std::string *s = stringAttr(op, "parameter_name"))
            return ValueName { *s, NameSource::Parameter, op };
    } else if (name == ops::kData) {
        if (const std::string *s = stringAttr(op, "name"))
            return ValueName { *s, NameSource::Data, op };
    } else if (name == ops::kConstant) {
        const Attribute *a = op->attribute("value");
        if (a && a->kind() == Attribute::Kind::TensorName)
            return ValueName { a->asString(), NameSource::Constant, op };
    }
    return std::nullopt;
}

std::vector<ValueName> ValueNames::outputNames(Value value)
{
    std::vector<ValueName> names;
    for (const OpOperand *use = value.firstUse(); use; use = use->nextUse()) {
        const Operation *user = use->owner();
        if (!user)
            continue;
        NameSource source {};
        if (const std::string *s = outputNameOf(user, source))
            names.push_back({ *s, source, user });
    }
    return names;
}

std::vector<ValueName> ValueNames::allNames(Value value)
{
    std::vector<ValueName> names;
    if (auto in = inputName(value))
        names.push_back(std::move(*in));
    for (ValueName &n : outputNames(value))
        names.push_back(std::move(n));
    return names;
}

std::vector<std::string> ValueNames::allNameStrings(Value value)
{
    std::vector<std::string> out;
    for (ValueName &n : allNames(value))
        out.push_back(std::move(n.name));
    return out;
}

std::optional<std::string> ValueNames::firstName(Value value)
{
    if (auto in = inputName(value))
        return std::move(in->name);
    // outputNames(value).front() without building the list: this runs for every value of a
    // program when dy2static maps names.
    for (const OpOperand *use = value.firstUse(); use; use = use->nextUse()) {
        NameSource source {};
        if (const Operation *user = use->owner())
            if (const std::string *s = outputNameOf(user, source))
                return *s;
    }
    return std::nullopt;
}

bool ValueNames::hasOnlyOneName(Value value)
{
    // Runs for every value when names are unified: no name list or set is built for the common
    // cases (no name, or only an input name).
    if (value.isNull() || !value.hasUses())
        return true;
    const std::optional<ValueName> in = inputName(value);
    const std::vector<ValueName> out = outputNames(value);
    const std::string *first = in ? &in->name : out.empty() ? nullptr : &out.front().name;
    return std::all_of(out.begin(), out.end(), [first](const ValueName &n) { return n.name == *first; });
}

std::string valueNameOrEmpty(Value value)
{
    return ValueNames::firstName(value).value_or(std::string());
}

} // namespace ps
