#pragma once

#include <optional>
#include <string_view>

namespace ps {

/// Which revision of Paddle's dy2static pipeline (`pir_partial_program.py`) to reproduce
/// (PADDLE_PIR.md §9): the seed, the 3.0-era revision, or the newest (Paddle 3.3.1). In ir so a
/// trace-bundle manifest (io) can name it without io including the pipeline (transform).
enum class PipelineFlavour { Seed, Paddle30, Newest };

/// "seed", "3.0", "newest".
std::string_view flavourName(PipelineFlavour flavour);
/// Accepts flavourName() spellings and "paddle30".
std::optional<PipelineFlavour> flavourFromName(std::string_view name);
/// The name the flavour gives the fake (null) value: "FakeVar" (seed, 3.0; ValueNameMap's
/// kFakeName), "Fake_var" (3.3.1, whose FAKE_VALUE_NAME is C++ kFakeVarName; PADDLE_PIR.md's
/// "FakeValue" is a later develop).
std::string_view fakeValueName(PipelineFlavour flavour);

} // namespace ps
