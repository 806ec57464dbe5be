#pragma once

#include "core/transform/pass.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Program;

/// What one pass did to one program.
struct PassRecord
{
    std::string pass; ///< Paddle's pass name
    std::string target; ///< which program: "forward", "backward", "program", ...
    size_t rewrites = 0; ///< what the pass reported
    size_t opsBefore = 0; ///< ops, nested ones included
    size_t opsAfter = 0;
    size_t removed = 0; ///< ops that disappeared (by identity)
    size_t added = 0; ///< ops that appeared
    /// Texts of the removed ops (numbered as in textBefore) and of the added ones (numbered as
    /// in textAfter), one line each; empty when text recording is off.
    std::vector<std::string> removedOps;
    std::vector<std::string> addedOps;
    /// The whole program printed before and after (empty when text recording is off), so a
    /// viewer can diff them.
    std::string textBefore;
    std::string textAfter;

    bool changed() const { return removed != 0 || added != 0 || rewrites != 0; }
};

/// An ordered list of named passes, each enabled or disabled, run on programs in place. Every
/// run of a pass appends a PassRecord to the log (also when it changed nothing). Recording the
/// program text costs two prints per pass; setRecordText(false) turns it off.
class PassManager
{
public:
    PassManager();
    PassManager(PassManager &&) noexcept;
    PassManager &operator=(PassManager &&) noexcept;
    ~PassManager();

    /// The passes PIRScope knows, in the order dy2static would run them: dead-code elimination
    /// (disabled; dy2static does not run it) and common-subexpression elimination (enabled, as
    /// `FLAGS_enable_cse_in_dy2st` is in Paddle 3.3.1).
    static PassManager withDefaultPasses();

    void addPass(std::unique_ptr<Pass> pass, bool enabled = true);
    /// By Paddle name or alias; false when there is no such pass.
    bool setEnabled(std::string_view name, bool enabled);
    bool isEnabled(std::string_view name) const;
    /// By Paddle name or alias; nullptr when absent.
    Pass *pass(std::string_view name) const;
    std::vector<const Pass *> passes() const;

    void setRecordText(bool on) { m_recordText = on; }
    bool recordText() const { return m_recordText; }

    /// Runs the enabled passes in order on `program`; returns their records (also appended to
    /// the log).
    std::vector<PassRecord> run(Program &program, const std::string &target = "program");
    const std::vector<PassRecord> &log() const { return m_log; }
    void clearLog() { m_log.clear(); }

private:
    struct Entry
    {
        std::unique_ptr<Pass> pass;
        bool enabled = true;
    };
    const Entry *find(std::string_view name) const;

    std::vector<Entry> m_entries;
    std::vector<PassRecord> m_log;
    bool m_recordText = true;
};

} // namespace ps
