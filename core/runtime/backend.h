#pragma once

#include "core/runtime/device.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/tensorstats.h"

#include <memory>
#include <string>

namespace ps {

class Allocator;
class Tensor;

/// One execution device: its allocator, its kernels, copies to and from the host and
/// statistics computed where the tensor lives. The CPU backend is the oracle for every other.
class Backend
{
public:
    virtual ~Backend() = default;
    virtual Device device() const = 0;
    /// "CPU (oneDNN 2.6.3 (OpenMP), OpenBLAS)", "CPU plain (OpenBLAS)" or "CUDA:0 NVIDIA H200".
    virtual std::string name() const = 0;
    virtual Allocator &allocator() = 0;
    virtual const KernelRegistry &kernels() const = 0;

    /// Host copy of `t` (the same tensor handle when it is already on the host).
    virtual Tensor toHost(const Tensor &t) = 0;
    /// `t` (any device) copied to this backend's device (the same handle when already there).
    virtual Tensor toDevice(const Tensor &t) = 0;
    /// Waits for queued device work (per-op device timing calls this); no-op on the CPU.
    virtual void synchronize() { }
    /// dst's bytes = src's (equal byte sizes); `src` on the host or this device, `dst` on this
    /// device. The default handles host tensors (memcpy); device backends override it.
    virtual void copy(const Tensor &src, Tensor &dst);
    /// Every byte of `t` (on this device) set to `byte`. The default handles host tensors.
    virtual void fillBytes(Tensor &t, unsigned char byte);
    virtual TensorStats stats(const Tensor &t, int bins = 64) = 0;
};

/// The host backend: every CPU kernel, the oneDNN ones over the plain ones where the build has
/// oneDNN (PIRSCOPE_HAVE_DNNL; without it the plain kernels alone, and its name says so).
std::unique_ptr<Backend> createCpuBackend();
/// The plain CPU kernels alone (device "cpu-plain"): the oracle every other backend, the oneDNN
/// kernels included, is checked against.
std::unique_ptr<Backend> createCpuPlainBackend();
/// The CUDA backend for device `index`, or nullptr with `reason` set ("built without CUDA",
/// "no CUDA device: <driver message>").
std::unique_ptr<Backend> createCudaBackend(int index, std::string &reason);
/// cuda-sim: the CUDA backend's own sources compiled for the host, run against an emulated
/// device (core/runtime/cudasim), or nullptr with `reason` set when this build has none.
std::unique_ptr<Backend> createCudaSimBackend(std::string &reason);

} // namespace ps
