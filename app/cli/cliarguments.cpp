#include "cliarguments.h"

#include "core/io/numbertext.h"

bool CliArguments::parse(const std::vector<std::string> &args, const std::set<std::string> &flags,
    const std::set<std::string> &valued, std::string &error)
{
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
            m_positional.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::optional<std::string> inlineValue;
        if (auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name.resize(eq);
        }
        if (flags.count(name) && !inlineValue) {
            m_flags.insert(name);
        } else if (valued.count(name)) {
            if (inlineValue) {
                m_options[name].push_back(*inlineValue);
            } else if (i + 1 < args.size()) {
                m_options[name].push_back(args[++i]);
            } else {
                error = "option --" + name + " needs a value";
                return false;
            }
        } else {
            error = "unknown option " + a;
            return false;
        }
    }
    return true;
}

std::optional<std::string> CliArguments::option(const std::string &name) const
{
    auto it = m_options.find(name);
    if (it == m_options.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

std::vector<std::string> CliArguments::options(const std::string &name) const
{
    auto it = m_options.find(name);
    return it == m_options.end() ? std::vector<std::string>() : it->second;
}

bool CliArguments::unsignedOption(
    const std::string &name, uint64_t min, uint64_t max, uint64_t &out, std::string &error) const
{
    const std::optional<std::string> text = option(name);
    if (!text)
        return true;
    std::string why;
    const std::optional<uint64_t> v = ps::NumberText::parseUnsigned(*text, min, max, why);
    if (!v) {
        error = "--" + name + ": " + why;
        return false;
    }
    out = *v;
    return true;
}

bool CliArguments::numberOption(
    const std::string &name, double min, double max, double &out, std::string &error) const
{
    const std::optional<std::string> text = option(name);
    if (!text)
        return true;
    std::string why;
    const std::optional<double> v = ps::NumberText::parseFinite(*text, min, max, why);
    if (!v) {
        error = "--" + name + ": " + why;
        return false;
    }
    out = *v;
    return true;
}
