#pragma once

#include "core/ir/datatype.h"
#include "core/ir/place.h"

#include <memory>
#include <set>
#include <string>

namespace ps {

class ConstantEvaluator;

/// What some passes need from outside the program, as Paddle gives them as pass attributes
/// (`Pass::Set`): the place (kPlaceAttr), the mixed-precision settings of
/// `auto_mixed_precision_pass`, the parameter values of `constant_folding_pass` (kParamScopeAttr,
/// here a ConstantEvaluator), `inplace_pass`'s no-need-buffer names.
struct PassOptions
{
    /// Where the program will run. Paddle's inference sets the predictor's place; PIRScope's
    /// default is the GPU, the place Paddle's inference pipelines are written for.
    Place place { Place::AllocType::Gpu, 0, {} };
    /// `mixed_precision_mode`: Float16 or BFloat16.
    DataType mixedPrecision = DataType::Float16;
    /// `enable_low_precision_io`: feed/fetch in low precision too.
    bool lowPrecisionIo = false;
    /// `mixed_white_list` / `mixed_black_list`: op names without the dialect ("matmul").
    std::set<std::string> mixedWhiteList;
    std::set<std::string> mixedBlackList;
    /// constant_folding_pass `train_mode`: fold into `builtin.constant` ops only, from constants.
    bool trainMode = false;
    /// Computes folded values; null: constant_folding_pass rewrites the program without values
    /// (it says so in its description and the numeric check cannot run the folded program).
    std::shared_ptr<ConstantEvaluator> evaluator;
    /// inplace_pass: shadow-output names whose buffer is not needed (dy2static's no_need_buffers).
    std::set<std::string> noNeedBufferNames;
};

} // namespace ps
