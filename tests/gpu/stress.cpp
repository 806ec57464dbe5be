// `stress [--quick]`: the CUDA paths the kernel fixtures are too small to reach, each against the
// CPU oracle (or a closed form where the CPU would take too long): chunked row and column
// reductions, layer_norm with more than 1024 columns, softmax with inner > 1, convolution with
// the column matrix built in chunks, float16/bfloat16/TF32 GEMMs and convolutions (float32
// accumulation), conv2d_grad in float16, histograms of more than 8192 bins, and tensors of more
// than 2^31 elements (64-bit index paths, concat beyond a 2 GiB pitch). --quick shrinks every
// case so cuda-sim runs them in CI (the 2^31 cases then run on the 64-bit index path forced by
// PIRSCOPE_CUDA_FORCE_WIDE_INDEX, the conv chunks with PIRSCOPE_CUDA_COLUMN_BUDGET).

#include "core/runtime/cuda/cudaapi.h"
#include "core/runtime/cuda/cudabackend.h"
#include "core/runtime/tensorcomparison.h"
#include "core/runtime/tensorstats.h"
#include "core/ir/program.h"
#include "gpucheck.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>

namespace gpucheck {
namespace {

using Clock = std::chrono::steady_clock;

struct Case
{
    std::string name;
    std::string program; ///< its last op is the one checked
    std::vector<ps::Tensor> inputs; ///< host, in the order of the program's data ops
    double rtol = 1e-5, atol = 1e-6;
    bool tf32 = false;
};

std::string typeOf(const std::vector<int64_t> &shape, ps::DataType dtype)
{
    std::string s = "tensor<";
    for (int64_t d : shape)
        s += std::to_string(d) + "x";
    return s + std::string(ps::irName(dtype)) + ">";
}

std::string dataLine(int id, const std::vector<int64_t> &shape, ps::DataType dtype)
{
    return "    (%" + std::to_string(id) + ") = \"pd_op.data\" () {dtype:" + std::string(ps::phiName(dtype))
        + ",name:\"in" + std::to_string(id) + "\",place:Place(cpu),shape:" + ps::shapeText(shape)
        + ",stop_gradient:[true]} : () -> " + typeOf(shape, dtype) + "\n";
}

ps::Tensor randomOf(std::vector<int64_t> shape, ps::DataType dtype, uint64_t seed, double scale = 1.0)
{
    const ps::Tensor f = randomTensor(std::move(shape), seed, scale);
    if (dtype == ps::DataType::Float32)
        return f;
    const std::vector<double> v = f.toDoubles();
    return ps::Tensor::fromDoubles(f.shape(), dtype, v);
}

/// One case: the last op on CUDA and on the CPU, every result compared.
std::string runCase(const Case &c, ps::Backend &cuda, ps::Backend &cpu, double &maxDiff, double &ms)
{
    const std::unique_ptr<ps::Program> program = parseProgram("{\n" + c.program + "}\n");
    if (!program)
        return "the generated program does not parse";
    auto *backend = dynamic_cast<ps::CudaBackend *>(&cuda);
    if (backend)
        backend->setAllowTf32(c.tf32);
    std::vector<ps::RuntimeValue> onDevice, onHost;
    for (const ps::Tensor &t : c.inputs) {
        onDevice.emplace_back(cuda.toDevice(t));
        onHost.emplace_back(t);
    }
    cuda.synchronize();
    const auto t0 = Clock::now();
    std::vector<ps::RuntimeValue> got;
    try {
        got = runLastOp(*program, cuda, onDevice);
        cuda.synchronize();
    } catch (const std::exception &e) {
        if (backend)
            backend->setAllowTf32(false);
        return std::string("CUDA: ") + e.what();
    }
    ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (backend)
        backend->setAllowTf32(false);
    const std::vector<ps::RuntimeValue> want = runLastOp(*program, cpu, onHost);
    for (size_t r = 0; r < got.size() && r < want.size(); ++r) {
        if (!got[r].isTensor() || !got[r].tensor().defined())
            continue;
        const ps::TensorComparison cmp
            = ps::TensorComparison::compare(cuda.toHost(got[r].tensor()), want[r].tensor(), c.rtol, c.atol);
        maxDiff = std::max(maxDiff, cmp.maxAbsError);
        if (!cmp.ok())
            return "result " + std::to_string(r) + ": " + cmp.summary();
    }
    return {};
}

std::vector<Case> cases(bool quick)
{
    using DT = ps::DataType;
    std::vector<Case> out;
    const auto sum = [&](const char *name, std::vector<int64_t> shape, int axis) {
        std::vector<int64_t> os = shape;
        os.erase(os.begin() + axis);
        Case c { name, dataLine(0, shape, DT::Float32)
                + "    (%1) = \"pd_op.full_int_array\" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:["
                + std::to_string(axis) + "]} : () -> tensor<1xi64>\n"
                + "    (%2) = \"pd_op.sum\" (%0, %1) {dtype:float32,keepdim:false,stop_gradient:[true]} : ("
                + typeOf(shape, DT::Float32) + ", tensor<1xi64>) -> " + typeOf(os, DT::Float32) + "\n",
            { randomOf(shape, DT::Float32, 1) }, 1e-5, 1e-4 };
        out.push_back(c);
    };
    sum("sum of long rows (chunked rows)", quick ? std::vector<int64_t> { 2, 1 << 17 } : std::vector<int64_t> { 4, 1 << 22 }, 1);
    sum("sum down columns (chunked columns)", quick ? std::vector<int64_t> { 1 << 15, 8 } : std::vector<int64_t> { 1 << 21, 8 }, 0);

    {
        const std::vector<int64_t> xs = quick ? std::vector<int64_t> { 8, 2000 } : std::vector<int64_t> { 256, 4096 };
        const std::vector<int64_t> ws { xs[1] };
        out.push_back({ "layer_norm, " + std::to_string(xs[1]) + " columns (block per row)",
            dataLine(0, xs, DT::Float32) + dataLine(1, ws, DT::Float32) + dataLine(2, ws, DT::Float32)
                + "    (%3, %4, %5) = \"pd_op.layer_norm\" (%0, %1, %2) {begin_norm_axis:1,epsilon:1e-05,stop_gradient:[true,true,true]} : ("
                + typeOf(xs, DT::Float32) + ", " + typeOf(ws, DT::Float32) + ", " + typeOf(ws, DT::Float32) + ") -> "
                + typeOf(xs, DT::Float32) + ", " + typeOf({ xs[0] }, DT::Float32) + ", " + typeOf({ xs[0] }, DT::Float32) + "\n",
            { randomOf(xs, DT::Float32, 2, 3.0), randomOf(ws, DT::Float32, 3), randomOf(ws, DT::Float32, 4) }, 1e-4, 1e-5 });
    }
    {
        const std::vector<int64_t> xs = quick ? std::vector<int64_t> { 4, 300, 7 } : std::vector<int64_t> { 16, 1000, 9 };
        out.push_back({ "softmax over a middle axis (inner > 1)",
            dataLine(0, xs, DT::Float32) + "    (%1) = \"pd_op.softmax\" (%0) {axis:1,stop_gradient:[true]} : ("
                + typeOf(xs, DT::Float32) + ") -> " + typeOf(xs, DT::Float32) + "\n",
            { randomOf(xs, DT::Float32, 5, 4.0) }, 1e-5, 1e-7 });
    }
    const auto conv = [&](const std::string &name, std::vector<int64_t> xs, std::vector<int64_t> ws, DT dtype,
                          double rtol, double atol, bool tf32) {
        const std::vector<int64_t> os { xs[0], ws[0], xs[2], xs[3] };
        out.push_back({ name,
            dataLine(0, xs, dtype) + dataLine(1, ws, dtype)
                + "    (%2) = \"pd_op.conv2d\" (%0, %1) {data_format:\"NCHW\",dilations:[1,1],groups:1,padding_algorithm:\"EXPLICIT\",paddings:[1,1],stop_gradient:[true],strides:[1,1]} : ("
                + typeOf(xs, dtype) + ", " + typeOf(ws, dtype) + ") -> " + typeOf(os, dtype) + "\n",
            { randomOf(xs, dtype, 6), randomOf(ws, dtype, 7, 0.2) }, rtol, atol, tf32 });
    };
    conv("conv2d, column matrix in chunks", quick ? std::vector<int64_t> { 4, 8, 40, 40 } : std::vector<int64_t> { 8, 16, 256, 256 },
        { 16, quick ? 8 : 16, 3, 3 }, DT::Float32, 1e-4, 1e-5, false);
    conv("conv2d float16", { 2, 16, 32, 32 }, { 16, 16, 3, 3 }, DT::Float16, 1e-2, 1e-2, false);
    conv("conv2d TF32", { 2, 16, 32, 32 }, { 16, 16, 3, 3 }, DT::Float32, 5e-3, 5e-3, true);
    const auto matmul = [&](const std::string &name, int64_t n, DT dtype, double rtol, double atol, bool tf32) {
        out.push_back({ name,
            dataLine(0, { n, n }, dtype) + dataLine(1, { n, n }, dtype)
                + "    (%2) = \"pd_op.matmul\" (%0, %1) {stop_gradient:[true],transpose_x:false,transpose_y:true} : ("
                + typeOf({ n, n }, dtype) + ", " + typeOf({ n, n }, dtype) + ") -> " + typeOf({ n, n }, dtype) + "\n",
            { randomOf({ n, n }, dtype, 8), randomOf({ n, n }, dtype, 9) }, rtol, atol, tf32 });
    };
    matmul("matmul float16 (float32 accumulation)", quick ? 64 : 512, DT::Float16, 1e-2, 2e-2, false);
    matmul("matmul bfloat16 (float32 accumulation)", quick ? 64 : 512, DT::BFloat16, 2e-2, 5e-2, false);
    // TF32 keeps 10 of float32's 23 mantissa bits: each product carries up to 2^-10 of relative
    // rounding error and a K-term sum's error grows about as sqrt(K) (0.0091 at K = 512 on an H200,
    // 44 of 262144 elements past a flat 5e-3), so the absolute tolerance scales with sqrt(K / 64).
    const int64_t tf32K = quick ? 64 : 512;
    matmul("matmul TF32", tf32K, DT::Float32, 5e-3, 5e-3 * std::sqrt(double(tf32K) / 64.0), true);
    {
        const std::vector<int64_t> xs { 2, 8, 16, 16 }, ws { 8, 8, 3, 3 };
        const DT h = DT::Float16;
        out.push_back({ "conv2d_grad float16 (float32 accumulation)",
            dataLine(0, xs, h) + dataLine(1, ws, h) + dataLine(2, xs, h)
                + "    (%3, %4) = \"pd_op.conv2d_grad\" (%0, %1, %2) {data_format:\"NCHW\",dilations:[1,1],groups:1,padding_algorithm:\"EXPLICIT\",paddings:[1,1],stop_gradient:[false,false],strides:[1,1]} : ("
                + typeOf(xs, h) + ", " + typeOf(ws, h) + ", " + typeOf(xs, h) + ") -> " + typeOf(xs, h) + ", "
                + typeOf(ws, h) + "\n",
            { randomOf(xs, h, 10), randomOf(ws, h, 11, 0.2), randomOf(xs, h, 12) }, 1e-2, 5e-2 });
    }
    return out;
}

/// Histogram of more than 8192 bins (global-memory counting) against the host.
std::string histogramCase(ps::Backend &cuda, bool quick, double &ms)
{
    const ps::Tensor host = randomTensor({ quick ? 100000 : 20000000 }, 13, 5.0);
    const ps::Tensor dev = cuda.toDevice(host);
    cuda.synchronize();
    const auto t0 = Clock::now();
    const ps::TensorStats s = cuda.stats(dev, 10000);
    ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const ps::TensorStats h = ps::computeStatsHost(host, 10000);
    if (s.histogram != h.histogram)
        return "the 10000-bin histogram differs from the host's";
    if (s.count != h.count || s.min != h.min || s.max != h.max)
        return "counts or min/max differ from the host's";
    return {};
}

/// Elementwise add, cast and concat over tensors of more than 2^31 elements (int8/bool), checked
/// by closed form at sampled places.
std::string wideCase(ps::Backend &cuda, bool quick, double &ms)
{
    const int64_t n = quick ? (int64_t(1) << 16) + 77 : (int64_t(1) << 31) + 77;
    const std::string t = "tensor<" + std::to_string(n) + "xi8>", t2 = "tensor<" + std::to_string(2 * n) + "xi8>";
    const std::string text = "{\n"
                             "    (%0) = \"pd_op.full\" () {dtype:int8,place:Place(gpu:0),shape:["
        + std::to_string(n) + "],stop_gradient:[true],value:3} : () -> " + t + "\n"
        + "    (%1) = \"pd_op.full\" () {dtype:int8,place:Place(gpu:0),shape:[" + std::to_string(n)
        + "],stop_gradient:[true],value:4} : () -> " + t + "\n"
        + "    (%2) = \"pd_op.add\" (%0, %1) {stop_gradient:[true]} : (" + t + ", " + t + ") -> " + t + "\n"
        + "    (%3) = \"builtin.combine\" (%2, %0) {} : (" + t + ", " + t + ") -> vec[" + t + "," + t + "]\n"
        + "    (%4) = \"pd_op.full\" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>\n"
        + "    (%5) = \"pd_op.concat\" (%3, %4) {stop_gradient:[true]} : (vec[" + t + "," + t + "], tensor<1xi32>) -> " + t2 + "\n"
        + "}\n";
    const std::unique_ptr<ps::Program> program = parseProgram(text);
    if (!program)
        return "the generated program does not parse";
    const auto t0 = Clock::now();
    const ProgramRun run = runProgram(*program, cuda, {}, true);
    ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (!run.error.empty())
        return run.error;
    const ps::Tensor &joined = run.lastResults.at(0);
    if (joined.numElements() != 2 * n)
        return "concat gave " + joined.describe();
    for (int64_t i : { int64_t(0), n / 2, n - 1, n, n + n / 3, 2 * n - 1 }) {
        const int want = i < n ? 7 : 3;
        if (joined.data<int8_t>()[i] != want)
            return "element " + std::to_string(i) + " is " + std::to_string(joined.data<int8_t>()[i]) + ", not "
                + std::to_string(want);
    }
    return {};
}

} // namespace

int stressCases(ps::Backend &cuda, ps::Backend &cpu, bool quick)
{
    std::cout << "### Stress cases" << (quick ? " (quick sizes)" : "") << ": CUDA vs the CPU oracle\n\n"
              << "| case | result | max abs diff | CUDA ms |\n|---|---|---|---|\n";
    int failed = 0;
    const auto row = [&](const std::string &name, const std::string &error, double diff, double ms) {
        char buf[96];
        std::snprintf(buf, sizeof buf, " | %.3g | %.1f |\n", diff, ms);
        std::cout << "| " << name << " | " << (error.empty() ? "ok" : "**FAILED** " + error) << buf;
        failed += error.empty() ? 0 : 1;
    };
    for (const Case &c : cases(quick)) {
        double diff = 0, ms = 0;
        const std::string error = runCase(c, cuda, cpu, diff, ms);
        row(c.name, error, diff, ms);
    }
    double ms = 0;
    row("histogram of 10000 bins", histogramCase(cuda, quick, ms), 0, ms);
    row(quick ? "add/concat, 64-bit index path (forced)" : "add/concat over 2^31 + 77 int8 elements",
        wideCase(cuda, quick, ms), 0, ms);
    std::cout << "\n" << failed << " case(s) failed.\n\n";
    return failed == 0 ? 0 : 1;
}

} // namespace gpucheck
