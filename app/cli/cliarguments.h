#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

/// The command line after the subcommand: positional arguments, `--flag` switches and
/// `--option VALUE` (or `--option=VALUE`) pairs. Which options take a value is declared by
/// the command, so `--json FILE` is not misread.
class CliArguments
{
public:
    /// Parses `args`; options named in `valued` take a value. Returns false with `error` set on
    /// an unknown option or a missing value.
    bool parse(const std::vector<std::string> &args, const std::set<std::string> &flags,
        const std::set<std::string> &valued, std::string &error);

    const std::vector<std::string> &positional() const { return m_positional; }
    bool flag(const std::string &name) const { return m_flags.count(name) != 0; }
    /// The last value given to `--name`.
    std::optional<std::string> option(const std::string &name) const;
    /// Every value given to `--name`, in order (for repeatable options).
    std::vector<std::string> options(const std::string &name) const;
    /// `--name N` as an integer in [min, max] into `out` (left alone when the option is absent);
    /// false with `error` ("--seed: expected a non-negative integer, got '12abc'") otherwise.
    bool unsignedOption(
        const std::string &name, uint64_t min, uint64_t max, uint64_t &out, std::string &error) const;
    /// `--name X` as a finite number in [min, max] (no nan, inf, trailing text).
    bool numberOption(const std::string &name, double min, double max, double &out, std::string &error) const;

private:
    std::vector<std::string> m_positional;
    std::set<std::string> m_flags;
    std::map<std::string, std::vector<std::string>> m_options;
};
