#pragma once

#include "core/runtime/runtimevalue.h"
#include "core/runtime/tensor.h"

namespace ps {

class Backend;

/// A host copy of `t` that never shares storage with it (a CPU tensor is cloned): safe to keep
/// while the run goes on and overwrites buffers in place. An undefined tensor stays undefined.
/// Costs one device-to-host transfer or one host memcpy.
Tensor deepHostCopy(Backend &backend, const Tensor &t);
/// deepHostCopy of a tensor or of each tensor of a list; other values (null, stacks) as they are.
RuntimeValue deepHostCopy(Backend &backend, const RuntimeValue &v);

} // namespace ps
