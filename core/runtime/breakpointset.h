#pragma once

#include "core/runtime/programposition.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// One interpreter breakpoint.
struct Breakpoint
{
    enum class Kind : unsigned char {
        Op, ///< before the op at `position` runs (every loop iteration)
        NanInf, ///< after the first op whose output holds a NaN or an infinity
        NameRegex, ///< after an op one of whose results has a name matching `pattern`
    };
    int id = 0;
    Kind kind = Kind::Op;
    ProgramPosition position;
    /// RE2 regex (NamePattern), searched (not fully matched) in each result's names.
    std::string pattern;
    bool enabled = true;
};

/// The interpreter's breakpoints. Thread-safe (a GUI may add or toggle breakpoints while the
/// interpreter runs on a worker thread); each query takes one uncontended lock.
class BreakpointSet
{
public:
    BreakpointSet();
    ~BreakpointSet();

    /// Returns the new breakpoint's id.
    int addOp(const ProgramPosition &position);
    int addNanInf();
    /// -1 with `error` set when `pattern` is not a valid regex (or the build has no RE2:
    /// NamePattern::kUnsupported).
    int addNameRegex(const std::string &pattern, std::string &error);
    bool remove(int id);
    bool setEnabled(int id, bool enabled);
    void clear();
    std::vector<Breakpoint> all() const;
    bool empty() const;

    /// The enabled op breakpoint at `position`, or -1.
    int opBreakpointAt(const ProgramPosition &position) const;
    /// The enabled NaN/Inf breakpoint, or -1.
    int nanInfBreakpoint() const;
    bool hasNameBreakpoints() const;
    /// The first enabled name breakpoint whose regex is found in `name`, or -1.
    int matchName(std::string_view name) const;

private:
    struct Compiled;
    mutable std::mutex m_mutex;
    std::vector<Breakpoint> m_items;
    std::vector<std::shared_ptr<Compiled>> m_regexes; ///< parallel to m_items (null for non-regex)
    int m_nextId = 1;
};

} // namespace ps
