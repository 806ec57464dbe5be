#pragma once

#include "core/runtime/tensorcomparison.h"

namespace ps {

class Tensor;

/// The root mean square of `t`'s finite elements (0 for none): the value's scale.
double rootMeanSquare(const Tensor &t);

/// TensorComparison::compare judged against the value's scale: an element matches when
/// |a - e| <= atol + rtol * (|e| + rms(e)). Float rounding that a pass reorders (conv + bn folded
/// into one conv) grows with the magnitudes a sum went through, not with the element's own: in a
/// deep net on random data the values reach 1e7 and an element near zero after cancellation is
/// off by 1e-5 of the tensor's scale, which NumPy's rule (|e| alone) calls a failure.
TensorComparison compareToScale(const Tensor &actual, const Tensor &expected, double rtol, double atol);

} // namespace ps
