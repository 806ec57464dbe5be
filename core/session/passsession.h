#pragma once

#include "core/runtime/tensorsource.h"
#include "core/session/passnumericscheck.h"
#include "core/transform/passoptions.h"

#include <memory>
#include <string>

namespace ps {

class Backend;
class ParameterStore;
class PassTimelineCheck;
class Program;

/// What running passes needs beyond the passes, built one way for the GUI's pass view
/// (PassTimelineRunner) and `pirscope-cli passes`: the CPU oracle as backend, the program's
/// parameters in a ParameterStore, constant_folding_pass's evaluator over that store (the
/// folded parameters go there, so the folded program runs) and the numeric check over the same
/// store. Without parameters the evaluator is null (constant folding rewrites without values).
/// The evaluator and the checks it makes refer to its backend: the session must outlive them
/// and the passes they are given to.
class PassSession
{
public:
    PassSession();
    ~PassSession();
    PassSession(const PassSession &) = delete;
    PassSession &operator=(const PassSession &) = delete;

    /// Reads the parameters (and tensor constants) of `program` from `source` into a new store;
    /// false with `error` (the session then has no parameters).
    bool loadParameters(const Program &program, const TensorSource &source, std::string &error);
    /// Uses a store an earlier session loaded (and constant folding added to): a re-run of the
    /// same input keeps its folded parameters.
    void shareParameters(std::shared_ptr<ParameterStore> store) { m_store = std::move(store); }
    const std::shared_ptr<ParameterStore> &parameters() const { return m_store; }
    bool hasParameters() const { return m_store != nullptr; }

    /// `options` with constant folding's evaluator over the parameters (null without them).
    PassOptions passOptions(PassOptions options = {}) const;
    /// The numeric check of a PassManager run (an instrumentation) over the parameters. Needs
    /// parameters.
    std::shared_ptr<PassNumericsCheck> numericsCheck(PassNumericsCheck::Options options) const;
    /// The numeric check of a PassTimelineRecorder run over the parameters. Needs parameters.
    std::shared_ptr<PassTimelineCheck> timelineCheck(PassNumericsCheck::Options options = {}) const;

    Backend &backend() const { return *m_backend; }

private:
    std::unique_ptr<Backend> m_backend;
    std::shared_ptr<ParameterStore> m_store;
};

} // namespace ps
