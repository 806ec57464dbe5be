#pragma once

#include "core/ir/attribute.h"

#include <span>
#include <string_view>
#include <vector>

namespace ps {

/// What Paddle 3.3.1's `onednn_placement_pass` does to a `pd_op.X`: which ops it renames
/// `onednn_op.X` and the oneDNN "extra" attributes it sets on them with their defaults
/// (ops/yaml/inconsistent/onednn_ops_extra.yaml, plus `onednn_data_type` "" wherever there is
/// `mkldnn_data_type`, as 3.3.1's ops print). Read off Paddle's pass and checked against its
/// predictor's IR-debug dumps (tests/fixtures/onednn_passes, tools/make_onednn_pass_fixtures.py):
/// `divide` stays `pd_op` in 3.3.1 whatever its dtype; cast, scale and slice move only with a
/// float32 or bfloat16 operand 0; every other op in the table moves whatever its dtype.
///
/// A `onednn_op.X` from this table computes what `pd_op.X` computes (its extra attributes are
/// kernel-selection and quantization hints at their neutral defaults): the op registry, the
/// kernels and the shape rules treat it as `pd_op.X`.
class OneDnnPlacement
{
public:
    /// Short names ("conv2d", "relu_") of the ops the pass renames.
    static std::span<const std::string_view> opNames();
    /// Whether the pass renames `pd_op.<shortName>`.
    static bool placed(std::string_view shortName);
    /// The extra attributes it sets on `onednn_op.<shortName>` (empty for many); nullptr for an
    /// op it does not rename.
    static const std::vector<NamedAttribute> *extraAttributes(std::string_view shortName);
    /// Whether the op moves only when operand 0 is float32 or bfloat16 (cast, scale, slice).
    static bool needsFloatOperand(std::string_view shortName);
    /// "onednn_op.<shortName>" for a placed op (static storage), else empty.
    static std::string_view placedName(std::string_view shortName);
    /// "pd_op.X" for a placed "onednn_op.X", else empty: the op it stands for.
    static std::string_view paddleEquivalent(std::string_view fullName);
};

} // namespace ps
