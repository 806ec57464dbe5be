#pragma once

#include "core/transform/passrecord.h"

#include <memory>
#include <string>
#include <vector>

namespace ps {

class Program;

/// One pass run with copies of the program before and after it (PassStepRecorder): what a
/// timeline, a graph diff or a text diff needs. `before` is shared with the previous step's
/// `after` when both come from one PassManager::run; `after == before` when the pass changed
/// nothing. Immutable once recorded, so steps can be shared between threads.
struct PassStep
{
    PassRecord record;
    std::shared_ptr<const Program> before;
    std::shared_ptr<const Program> after;
    /// Ops in both programs that the pass edited in place (attributes, result types or
    /// operands), by their walk position in `after`.
    std::vector<PassOpRef> modifiedOps;

    /// The removed ops as printed in `before` (value ids of `pirscope-cli print` of that
    /// program), one line each; regions are summarised by their first line. O(program).
    std::vector<std::string> removedOpTexts() const;
    /// The added ops as printed in `after`.
    std::vector<std::string> addedOpTexts() const;
    /// The edited ops as printed in `after`.
    std::vector<std::string> modifiedOpTexts() const;
};

} // namespace ps
