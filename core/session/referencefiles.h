#pragma once

#include "core/ir/value.h"

#include <map>
#include <string>
#include <unordered_map>

namespace ps {

class Program;
class TraceBundle;
struct PipelineResult;

/// Paddle's own tensors in a trace bundle (`.npy`), found by the value they stand for: the
/// outputs by the origin op result that defines them and by their fo name, the inputs and
/// parameters by name, and their gradients by the pipeline's bx_g / bp_g names.
class ReferenceFiles
{
public:
    ReferenceFiles() = default;
    /// For the bundle's origin program (`program.json` / `program.txt` as loaded).
    static ReferenceFiles forProgram(const TraceBundle &bundle, const Program &origin);
    /// For a pipeline computed from the bundle's origin program.
    static ReferenceFiles forPipeline(const TraceBundle &bundle, const PipelineResult &pipeline);

    /// The absolute path of Paddle's tensor for `value`, or "" when the bundle has none.
    std::string fileFor(Value value) const;
    /// By Paddle name (scope variable name).
    std::string fileForName(const std::string &name) const;
    bool empty() const { return m_byValue.empty() && m_byName.empty(); }

private:
    void addInputsAndParameters(const TraceBundle &bundle);

    std::unordered_map<const ValueImpl *, std::string> m_byValue;
    std::map<std::string, std::string> m_byName;
};

} // namespace ps
