#pragma once

// pirscope-gpu-check: the checks and benchmarks tests/gpu/run.sh runs on a CUDA machine (no Qt
// there). Each subcommand prints Markdown for the summary and returns 0 when its checks pass.

#include "core/runtime/backend.h"
#include "core/runtime/runtimevalue.h"
#include "core/runtime/tensor.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ps {
class Program;
}

namespace gpucheck {

/// |got - want| <= atol + rtol * |want| elementwise (NaN matches NaN, infinities exactly; ints and
/// bools exactly); empty when equal, else a message naming the first mismatch. `maxError` gets
/// the largest |got - want| seen.
std::string compareTensors(
    const ps::Tensor &got, const ps::Tensor &want, double rtol, double atol, double *maxError = nullptr);

/// Values of one straight-line program run: shadow outputs by name.
struct ProgramRun
{
    std::map<std::string, ps::Tensor> outputs; ///< host copies
    std::vector<ps::Tensor> lastResults; ///< host copies of the last op's results (undefined: not a tensor)
    std::string error; ///< empty on success
    int ops = 0; ///< kernel ops run
};

/// Runs the single block of `program` on `backend`: `pd_op.data` and `builtin.parameter` take
/// `feeds[name]`, `builtin.combine`/`builtin.split` build and unpack lists, every other op runs
/// its kernel; `builtin.shadow_output` values are copied to the host when `collect` is set.
/// A missing kernel is an error naming the op ("no CUDA kernel for pd_op.x").
ProgramRun runProgram(const ps::Program &program, ps::Backend &backend,
    const std::map<std::string, ps::Tensor> &feeds, bool collect);

/// `kernels FIXTURES_DIR`: every case of tests/fixtures/kernels on CUDA against the expected
/// arrays and the CPU backend.
int checkKernelFixtures(
    const std::string &root, ps::Backend &cuda, ps::Backend &cpu, const std::string &filter);
/// `bundles FIXTURES_DIR`: each golden bundle's train program on CUDA and CPU, outputs compared.
int checkBundles(const std::string &root, ps::Backend &cuda, ps::Backend &cpu);
/// `bench-matmul`: matmul through the kernel registry against raw cublasSgemm.
int benchMatmul(ps::Backend &cuda);
/// `bench-stats MIB`: Backend::stats over a float32 tensor of MIB MiB, checked against the host.
int benchStats(ps::Backend &cuda, int mib);
/// `bench-overhead`: host time per op of small kernels, with and without a synchronize.
int benchOverhead(ps::Backend &cuda);
/// `transformer BUNDLE_DIR WORK_DIR B S D H FF STEPS`: the bundle's training program scaled to
/// the given sizes, timed per step on CUDA; inputs, parameters and results saved for the PyTorch
/// comparison.
int benchTransformer(const std::vector<std::string> &args, ps::Backend &cuda, ps::Backend &cpu);

} // namespace gpucheck
