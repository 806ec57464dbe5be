#pragma once

#include "core/runtime/backend.h"

namespace ps {

/// The host backend: every kernel in cpu/, OpenBLAS for GEMM when the build found it. The
/// oracle the CUDA backend is checked against.
class CpuBackend final : public Backend
{
public:
    CpuBackend();
    Device device() const override { return Device::cpu(); }
    std::string name() const override;
    Allocator &allocator() override;
    const KernelRegistry &kernels() const override { return m_kernels; }
    Tensor toHost(const Tensor &t) override;
    Tensor toDevice(const Tensor &t) override;
    TensorStats stats(const Tensor &t, int bins) override;

private:
    KernelRegistry m_kernels;
};

} // namespace ps
