#pragma once

#include "core/runtime/backend.h"

namespace ps {

/// The host backend: every kernel in cpu/, OpenBLAS for GEMM when the build found it, and with
/// `Kernels::OneDnn` the oneDNN kernels (runtime/onednn) over the plain ones where the build has
/// oneDNN. `Kernels::Plain` (device cpu-plain) is the oracle the others are checked against.
class CpuBackend final : public Backend
{
public:
    enum class Kernels : unsigned char { OneDnn, Plain };

    explicit CpuBackend(Kernels kernels = Kernels::OneDnn);
    Device device() const override { return m_plain ? Device::cpuPlain() : Device::cpu(); }
    std::string name() const override;
    Allocator &allocator() override;
    const KernelRegistry &kernels() const override { return m_kernels; }
    Tensor toHost(const Tensor &t) override;
    Tensor toDevice(const Tensor &t) override;
    TensorStats stats(const Tensor &t, int bins) override;

    /// The build has oneDNN: the CPU backend (not cpu-plain) runs its kernels.
    static bool hasOneDnn();

private:
    KernelRegistry m_kernels;
    bool m_plain = false;
};

} // namespace ps
