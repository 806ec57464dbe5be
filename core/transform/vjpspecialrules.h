#pragma once

#include "core/transform/vjprules.h"

namespace ps {

/// Adds the rules of ops whose YAML backward is an `invoke` of another forward op: scale(_) →
/// `pd_op.scale(out_grad, scale, bias=0, bias_after_scale=true)`, cast(_) → `pd_op.cast(out_grad,
/// dtype=x.dtype)`, assign(_) → `pd_op.assign(out_grad)`, split / split_with_num →
/// `pd_op.concat(combine(out_grads), axis)`, flip → `pd_op.flip`, conj → `pd_op.conj`,
/// as_complex ↔ as_real, sign → `pd_op.scale` by a new `pd_op.full(0)`, unbind → `pd_op.stack`.
void addInvokeVjpRules(std::unordered_map<std::string_view, VjpRule> &rules);

} // namespace ps
