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
    /// Host copies of the elements of the last op's list results (split), by result index.
    std::map<size_t, std::vector<ps::Tensor>> lastLists;
    std::string error; ///< empty on success
    int ops = 0; ///< kernel ops run
};

/// Runs the single block of `program` on `backend`: `pd_op.data` and `builtin.parameter` take
/// `feeds[name]`, `builtin.combine`/`builtin.split` build and unpack lists, every other op runs
/// its kernel; `builtin.shadow_output` values are copied to the host when `collect` is set.
/// A missing kernel is an error naming the op ("no CUDA kernel for pd_op.x").
ProgramRun runProgram(const ps::Program &program, ps::Backend &backend,
    const std::map<std::string, ps::Tensor> &feeds, bool collect);

/// Deterministic uniform float32 values in [-scale, scale).
ps::Tensor randomTensor(std::vector<int64_t> shape, uint64_t seed, double scale = 1.0);
/// "tensor<2x3xf32>".
std::string tensorType(const std::vector<int64_t> &shape);
/// A Gen C `pd_op.data` line named `name` producing %id (float32).
std::string dataOp(int id, const std::string &name, const std::vector<int64_t> &shape);
/// A program from PIR text, or nullptr when it does not parse.
std::unique_ptr<ps::Program> parseProgram(const std::string &text);
/// Runs the last op of `program` through its kernel `iterations` times on already-placed inputs;
/// returns the outputs of the last run.
std::vector<ps::RuntimeValue> runLastOp(const ps::Program &program, ps::Backend &backend,
    const std::vector<ps::RuntimeValue> &inputs, int iterations = 1);

/// `kernels FIXTURES_DIR`: every case of tests/fixtures/kernels on CUDA against the expected
/// arrays and the CPU backend.
int checkKernelFixtures(
    const std::string &root, ps::Backend &cuda, ps::Backend &cpu, const std::string &filter);
/// `bundles FIXTURES_DIR`: each golden bundle's train program on CUDA and CPU, outputs compared.
int checkBundles(const std::string &root, ps::Backend &cuda, ps::Backend &cpu);
/// `selftest`: staging round trips, an impossible allocation then an op, offset-view statistics,
/// inplace results in device storage.
int selfTest(ps::Backend &cuda);
/// `stress [--quick]`: the paths the fixtures do not reach, against the CPU oracle.
int stressCases(ps::Backend &cuda, ps::Backend &cpu, bool quick);
/// `bench-matmul`: matmul through the kernel registry against raw cublasSgemm; fails below 90%.
int benchMatmul(ps::Backend &cuda);
/// `bench-stats MIB`: Backend::stats over a float32 tensor of MIB MiB, checked against the host;
/// fails below 2.8 TB/s (bytes the two passes read over their time).
int benchStats(ps::Backend &cuda, int mib);
/// `bench-overhead`: host time per op of small kernels, with and without a synchronize; fails
/// above 10 us per asynchronous relu.
int benchOverhead(ps::Backend &cuda);
/// `transformer BUNDLE_DIR WORK_DIR B S D H FF STEPS`: the bundle's training program scaled to
/// the given sizes, timed per step on CUDA; inputs, parameters and results saved for the PyTorch
/// comparison.
int benchTransformer(const std::vector<std::string> &args, ps::Backend &cuda, ps::Backend &cpu);

} // namespace gpucheck
