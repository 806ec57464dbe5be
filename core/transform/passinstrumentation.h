#pragma once

#include <string_view>

namespace ps {

class Pass;
class Program;
struct PassRecord;

/// Hooks PassManager::run calls around each pass, as MLIR's PassInstrumentation: the program
/// is the one the passes transform in place, valid only during the call. An instrumentation
/// records, prints or checks what it wants (PassTimelineRecorder keeps program copies, PassIrPrinter
/// prints Paddle's IRPrinting text, PassNumericsCheck runs both programs). Callbacks run on the
/// thread that runs the passes, in the order the instrumentations were added (after-callbacks
/// too). An UnimplementedPass gets both callbacks, with an unchanged program.
class PassInstrumentation
{
public:
    virtual ~PassInstrumentation() = default;
    /// Once per PassManager::run, before its first pass (also when no pass is enabled).
    virtual void runBeforePipeline(const Program &, std::string_view /*target*/) { }
    virtual void runBeforePass(const Pass &, const Program &, std::string_view /*target*/) { }
    /// `record` is complete: counts, time, removed and added ops.
    virtual void runAfterPass(const Pass &, const Program &, const PassRecord &) { }
    virtual void runAfterPipeline(const Program &, std::string_view /*target*/) { }
};

} // namespace ps
