#pragma once

#include "core/session/passnumericscheck.h"
#include "core/transform/passtimelinecheck.h"

#include <memory>

namespace ps {

class Backend;
class ParameterStore;

/// The numeric check of a pass timeline (PassTimelineRecorder) on the CPU oracle: a
/// PassNumericsCheck per run, its result per pass as a NumericCheck. The backend and the
/// parameter store must outlive it; the store is the one constant_folding_pass's evaluator
/// writes its folded parameters into, so the folded program runs.
class PassTimelineNumerics : public PassTimelineCheck
{
public:
    PassTimelineNumerics(
        Backend &backend, std::shared_ptr<ParameterStore> params, PassNumericsCheck::Options options = {});
    ~PassTimelineNumerics() override;

    void begin(const Program &program) override;
    std::optional<NumericCheck> afterPass(
        const Pass &pass, const Program &program, const PassRecord &record) override;

    /// The timeline's form of one result: nullopt when there was nothing to compare (the pass
    /// changed nothing or is not implemented), unchecked with the reason when a program did not
    /// run, else the errors; AMP's expected error and order-sensitive values (near-tie flips,
    /// PassNumerics::OrderSensitive) are named in the note.
    static std::optional<NumericCheck> summary(const PassNumerics &numerics);

private:
    Backend &m_backend;
    std::shared_ptr<ParameterStore> m_params;
    PassNumericsCheck::Options m_options;
    std::unique_ptr<PassNumericsCheck> m_check;
};

} // namespace ps
