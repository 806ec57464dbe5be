#pragma once

#include "core/analysis/opdiff.h"
#include "core/ir/diagnostic.h"

#include <functional>
#include <memory>
#include <mutex>

namespace ps {

class Program;

/// A program with the stable keys of its ops (OpKeys, empty when it has none) and what reading
/// it reported.
struct LoadedProgram
{
    std::shared_ptr<const Program> program; ///< null when it could not be read
    OpKeys keys;
    DiagnosticList diagnostics;
};

/// One program at one point of a pass pipeline: held (a PassManager run's copy) or read on
/// demand (a program in a log). A read program stays in memory only while someone holds it,
/// so a timeline over a 100 MB log keeps at most the programs being looked at. Thread-safe.
class ProgramSnapshot
{
public:
    using Loader = std::function<LoadedProgram()>;

    static std::shared_ptr<const ProgramSnapshot> of(
        std::shared_ptr<const Program> program, OpKeys keys = {});
    /// `opCount` is what the view shows before the program is read (a log's count of op lines).
    static std::shared_ptr<const ProgramSnapshot> lazy(Loader loader, size_t opCount);

    /// The program, read now if needed (the caller's thread; concurrent callers wait for one
    /// read). Never null; its `program` is null when reading failed.
    std::shared_ptr<const LoadedProgram> load() const;
    /// Whether load() returns at once.
    bool isLoaded() const;
    /// Ops (nested ones included): exact for a held program, the log's count otherwise.
    size_t opCount() const { return m_opCount; }

private:
    ProgramSnapshot() = default;

    Loader m_loader;
    size_t m_opCount = 0;
    std::shared_ptr<const LoadedProgram> m_held;
    mutable std::mutex m_mutex;
    mutable std::weak_ptr<const LoadedProgram> m_cache;
};

} // namespace ps
