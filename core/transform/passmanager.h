#pragma once

#include "core/transform/pass.h"
#include "core/transform/passinstrumentation.h"
#include "core/transform/passrecord.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Program;

/// An ordered list of named passes, each enabled or disabled, run on programs in place. Every
/// run of a pass appends a PassRecord (time, op counts, removed and added ops by walk position)
/// to the log, also when it changed nothing. The manager prints nothing and copies no program:
/// instrumentations (addInstrumentation) do that when wanted. Its own cost per pass is two walks
/// and two hash sets over the ops.
class PassManager
{
public:
    PassManager();
    PassManager(PassManager &&) noexcept;
    PassManager &operator=(PassManager &&) noexcept;
    ~PassManager();

    /// The passes dy2static runs on the split programs: dead-code elimination (disabled;
    /// dy2static does not run it) and common-subexpression elimination (enabled, as
    /// `FLAGS_enable_cse_in_dy2st` is in Paddle 3.3.1).
    static PassManager withDefaultPasses();

    void addPass(std::unique_ptr<Pass> pass, bool enabled = true);
    /// By Paddle name or alias; false when there is no such pass.
    bool setEnabled(std::string_view name, bool enabled);
    bool isEnabled(std::string_view name) const;
    /// By Paddle name or alias; nullptr when absent. The first match when a pass appears twice.
    Pass *pass(std::string_view name) const;
    std::vector<const Pass *> passes() const;
    /// The `index`th listed pass (passes()[index]) and its switch: a pipeline may list a pass
    /// twice, and each instance runs at its own place.
    Pass *passAt(size_t index) const { return m_entries[index].pass.get(); }
    bool isEnabledAt(size_t index) const { return m_entries[index].enabled; }
    void setEnabledAt(size_t index, bool enabled) { m_entries[index].enabled = enabled; }

    /// Called around every pass of every later run(), in the order added.
    void addInstrumentation(std::shared_ptr<PassInstrumentation> instrumentation);
    /// Removes `instrumentation` (by identity); false when it was not added.
    bool removeInstrumentation(const PassInstrumentation *instrumentation);

    /// Runs the enabled passes in order on `program`; returns their records (also appended to
    /// the log). `target` names the program in the records ("forward", "backward", "program").
    std::vector<PassRecord> run(Program &program, const std::string &target = "program");
    /// Runs the `index`th listed pass on `program`, enabled or not, with the instrumentations'
    /// per-pass callbacks (not the pipeline ones); returns its record (also appended to the log).
    PassRecord runAt(size_t index, Program &program, const std::string &target = "program");
    const std::vector<PassRecord> &log() const { return m_log; }
    void clearLog() { m_log.clear(); }

private:
    struct Entry
    {
        std::unique_ptr<Pass> pass;
        bool enabled = true;
    };
    const Entry *find(std::string_view name) const;
    PassRecord runOne(Pass &pass, Program &program, const std::string &target);

    std::vector<Entry> m_entries;
    std::vector<std::shared_ptr<PassInstrumentation>> m_instrumentations;
    std::vector<PassRecord> m_log;
};

} // namespace ps
