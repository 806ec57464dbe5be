#include "core/transform/gradattributes.h"

#include <cctype>
#include <charconv>
#include <string>
#include <vector>

namespace ps {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::string_view elementType(std::string_view yamlType)
{
    if (yamlType == "IntArray")
        return "int64_t";
    if (yamlType == "Scalar[]")
        return "Scalar(double)";
    if (yamlType.ends_with("[]"))
        return yamlType.substr(0, yamlType.size() - 2);
    return {};
}

bool isFloatType(std::string_view t)
{
    return t == "float" || t == "Scalar" || t == "Scalar(float)";
}

bool isDoubleType(std::string_view t)
{
    return t == "double" || t == "Scalar(double)";
}

bool isIntType(std::string_view t)
{
    return t == "int" || t == "int32_t" || t == "Scalar(int)";
}

bool isInt64Type(std::string_view t)
{
    return t == "int64_t" || t == "Scalar(int64_t)" || t == "size_t";
}

bool isNumeric(const Attribute &a)
{
    return a.isInteger() || a.isFloating() || a.kind() == Attribute::Kind::Scalar;
}

Attribute coerceScalar(const Attribute &value, std::string_view type)
{
    if (!isNumeric(value))
        return value;
    if (isFloatType(type))
        return Attribute::f32(float(value.asDouble()));
    if (isDoubleType(type))
        return Attribute::f64(value.asDouble());
    if (isIntType(type) && value.isInteger())
        return Attribute::int32(int32_t(value.asInt()));
    if (isInt64Type(type) && value.isInteger())
        return Attribute::int64(value.asInt());
    return value;
}

/// Splits the inside of `{a, b, c}` at top-level commas.
std::vector<std::string_view> splitList(std::string_view inner)
{
    std::vector<std::string_view> parts;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < inner.size(); ++i) {
        const char c = inner[i];
        if (c == '{' || c == '[' || c == '(')
            ++depth;
        else if (c == '}' || c == ']' || c == ')')
            --depth;
        else if (c == ',' && depth == 0) {
            parts.push_back(trim(inner.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (!trim(inner.substr(start)).empty())
        parts.push_back(trim(inner.substr(start)));
    return parts;
}

std::optional<double> parseNumber(std::string_view s, bool &isInteger)
{
    s = trim(s);
    if (s.ends_with('f') || s.ends_with('F'))
        s.remove_suffix(1);
    if (s.ends_with("LL") || s.ends_with("ll"))
        s.remove_suffix(2);
    else if (s.ends_with('L') || s.ends_with('l'))
        s.remove_suffix(1);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    isInteger = s.find_first_of(".eE") == std::string_view::npos;
    double d = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), d);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return d;
}

std::optional<Attribute> scalarFromText(std::string_view text, std::string_view type)
{
    text = trim(text);
    if (text == "true" || text == "false")
        return Attribute::boolean(text == "true");
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
        return Attribute::string(std::string(text.substr(1, text.size() - 2)));
    bool integer = false;
    const auto number = parseNumber(text, integer);
    if (!number)
        return std::nullopt;
    if (integer && !isFloatType(type) && !isDoubleType(type)) {
        const auto v = int64_t(*number);
        return isInt64Type(type) ? Attribute::int64(v) : Attribute::int32(int32_t(v));
    }
    return coerceScalar(Attribute::f64(*number), isFloatType(type) || isDoubleType(type) ? type : "double");
}

} // namespace

Attribute GradAttributes::coerce(const Attribute &value, std::string_view yamlType)
{
    if (yamlType == "IntArray" && value.kind() == Attribute::Kind::Array) {
        std::vector<int64_t> ints;
        for (const Attribute &e : value.asArray()) {
            if (!e.isInteger())
                return value;
            ints.push_back(e.asInt());
        }
        return Attribute::intArray(std::move(ints));
    }
    if (value.kind() == Attribute::Kind::Array) {
        const std::string_view element = elementType(yamlType);
        if (element.empty())
            return value;
        std::vector<Attribute> elements;
        elements.reserve(value.asArray().size());
        for (const Attribute &e : value.asArray())
            elements.push_back(coerceScalar(e, element));
        return Attribute::array(std::move(elements));
    }
    return coerceScalar(value, yamlType);
}

std::optional<Attribute> GradAttributes::fromYamlDefault(std::string_view text, std::string_view yamlType)
{
    text = trim(text);
    if (text.empty())
        return std::nullopt;
    if (text.starts_with("DataType::")) {
        std::string name(text.substr(10));
        for (char &c : name)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (name == "undefined")
            return Attribute::dataType(DataType::Undefined);
        if (auto dt = dataTypeFromPhiName(name))
            return Attribute::dataType(*dt);
        return std::nullopt;
    }
    if (yamlType == "Place") {
        Place place;
        if (text == "CPUPlace()")
            place.type = Place::AllocType::Cpu;
        else if (text != "{}")
            return std::nullopt;
        return Attribute::place(place);
    }
    const auto brace = text.find('{');
    if (brace != std::string_view::npos && text.back() == '}') {
        const std::string_view element = elementType(yamlType);
        std::vector<Attribute> elements;
        for (std::string_view part : splitList(text.substr(brace + 1, text.size() - brace - 2))) {
            auto e = scalarFromText(part, element);
            if (!e)
                return std::nullopt;
            elements.push_back(std::move(*e));
        }
        return coerce(Attribute::array(std::move(elements)), yamlType);
    }
    return scalarFromText(text, yamlType);
}

} // namespace ps
