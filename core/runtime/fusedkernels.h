#pragma once

namespace ps {

class KernelRegistry;

/// Kernels of the fused ops PIRScope's fusion passes make (pd_op.fc, fused_conv2d_add_act,
/// fused_bias_residual_layernorm, fused_rms_norm_quant, add_group_norm_silu). Each runs the
/// kernels of the ops it replaced, in the unfused order, through the same backend
/// (KernelComposer), so a fused program gives the unfused program's numbers on every backend that
/// has the parts. Unsupported attribute values (quantized outputs, padded fc weights,
/// split_channels) raise RuntimeError naming them. Called by every backend's constructor.
void registerFusedKernels(KernelRegistry &registry);

} // namespace ps
