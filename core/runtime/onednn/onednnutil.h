#pragma once

#include <cstdint>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <vector>

namespace ps {

class KernelContext;
class Tensor;

// What the oneDNN kernels share: descriptors of PIRScope's dense row-major tensors, plan keys
// and the hand-over to the plain kernel.

/// A cached primitive and the scratchpad it asks for (the kernels provide it: userScratchpad()).
struct OneDnnPlan
{
    dnnl::primitive primitive;
    dnnl::memory::desc scratchpad;
};

/// One eltwise post-op (or primitive): an activation a fused op applies.
struct OneDnnEltwise
{
    dnnl::algorithm algorithm = dnnl::algorithm::eltwise_relu;
    float alpha = 0, beta = 0;
};

/// A fused op's fuse_activation (onednn_op.fused_conv2d, onednn_op.fc) as eltwise post-ops in
/// Paddle's oneDNN kernels' mapping; false for one without an exact oneDNN counterpart.
bool oneDnnFusedActivation(const std::string &name, float alpha, float beta, std::vector<OneDnnEltwise> &out);

/// Attributes with a user-provided scratchpad, so cached primitives share no hidden buffers.
dnnl::primitive_attr userScratchpad();

/// Runs the plain CPU kernel of ctx's op (the oracle's), for a case the oneDNN kernel leaves.
void runPlainKernel(KernelContext &ctx);
/// A float32 tensor with at least one element: what the oneDNN kernels compute on.
bool isOneDnnFloat(const Tensor &t);
dnnl::memory::dims dnnlDims(const std::vector<int64_t> &shape);
/// The dense row-major (strided) descriptor of `shape` in float32.
dnnl::memory::desc plainDesc(const std::vector<int64_t> &shape);
/// A memory over `t`'s bytes (no copy); `desc` must describe them. Through a const tensor the
/// primitive only reads them; a mutable one is written (its storage's content id is dropped).
dnnl::memory userMemory(const dnnl::memory::desc &desc, const Tensor &t);
dnnl::memory userMemory(const dnnl::memory::desc &desc, Tensor &t);

/// Throws dnnl::error (unimplemented) when `pd` chose oneDNN's reference implementation: its
/// loops are slower than the plain kernels (seconds for a layer), so the kernel tries another
/// layout or hands the case to the plain kernel.
void rejectReference(const dnnl::primitive_desc_base &pd);

/// Appends numbers to a plan key: "conv|1,3,224,224|..."
void appendKey(std::string &key, const std::vector<int64_t> &values);
void appendKey(std::string &key, double value);

} // namespace ps
