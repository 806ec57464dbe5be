#pragma once

#include "core/io/pirtextlexer.h"
#include "core/ir/type.h"
#include "core/ir/value.h"

#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ps {

class Operation;

/// The value names of one PIR text parse: name → value with the position where it was
/// defined, plus operands that name a value not defined yet (patched when the definition
/// comes, reported if it never does). `%N` names live in a vector indexed by N (the common
/// case, no hashing); other names (`%arg_0`, `%kwarg_x`, `%stack_0`) in a hash map keyed by views
/// into the source text, which must outlive the table.
class PirTextValueTable
{
public:
    /// `%N` with N below `denseLimit` use the vector; keep it proportional to the text size so
    /// a stray `%99999999` cannot allocate gigabytes.
    explicit PirTextValueTable(size_t denseLimit)
        : m_denseLimit(denseLimit)
    {
    }

    struct Entry
    {
        Value value;
        int line = 0; ///< where its type (or its name) was printed
        int column = 0;
    };
    struct PendingUse
    {
        Operation *op;
        unsigned index; ///< operand index
        PirTextLexer::Token use;
        Type printedType;
        bool hasPrintedType;
        PirTextLexer::Token typeTok;
    };

    /// The entry of `name`, or null when the name was never bound.
    Entry *find(std::string_view name);
    /// The entry of `name`, created empty when missing.
    Entry &slot(std::string_view name);

    void addPending(std::string_view name, PendingUse use) { m_pending[name].push_back(std::move(use)); }
    /// Removes and returns the uses that wait for `name`.
    std::vector<PendingUse> takePending(std::string_view name);
    /// Removes and returns every use still waiting, in text order.
    std::vector<std::pair<std::string_view, PendingUse>> takeAllPending();

private:
    size_t m_denseLimit;
    std::vector<Entry> m_numbered;
    std::unordered_map<std::string_view, Entry> m_named;
    std::unordered_map<std::string_view, std::vector<PendingUse>> m_pending;
};

} // namespace ps
