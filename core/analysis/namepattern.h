#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace ps {

class Operation;
class Program;

/// A regular expression searched in op and value names: breakpoints on names (`--break REGEX`,
/// the debugger's name breakpoints), OP=REGEX references (`--provide`). It is RE2 (Debian's
/// libre2-dev), which runs in time linear in the name whatever the pattern, so `(a+)+$` cannot
/// hang the CLI or the GUI; the syntax is RE2's (Perl-like, without backreferences and
/// lookaround). A build without RE2 (core on a bare machine) says so: compile() fails with
/// kUnsupported. Immutable once compiled; search() is thread-safe.
class NamePattern
{
public:
    /// The error when PIRScope was built without RE2.
    static const char *const kUnsupported;
    /// Whether this build has RE2.
    static bool available();

    NamePattern(NamePattern &&) noexcept;
    NamePattern &operator=(NamePattern &&) noexcept;
    ~NamePattern();

    /// nullopt with `error` ("invalid regular expression '(': missing ): (") when `pattern` does not
    /// compile, is longer than 4096 characters or needs more than RE2's memory limit.
    static std::optional<NamePattern> compile(std::string_view pattern, std::string &error);
    /// The pattern is found somewhere in `text` (not a full match).
    bool search(std::string_view text) const;
    const std::string &pattern() const { return m_pattern; }
    /// The ops of `program` (nested ones included, in walk order) one of whose results has a name
    /// this pattern is found in: its Paddle names (ValueNames) and the printer's id ("%5"), the
    /// names a name breakpoint matches; with `opNames` also the ops whose name it is found in.
    /// O(ops); for the "matches no op" warning and OP=REGEX references.
    std::vector<const Operation *> matchingOps(const Program &program, bool opNames) const;

private:
    NamePattern() = default;
    std::string m_pattern;
    std::unique_ptr<re2::RE2> m_regex;
};

} // namespace ps
