#include "core/io/numbertext.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/cuda/cudaapi.h"
#include "core/runtime/cuda/cudabackend.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/npyio.h"
#include "core/runtime/tensorstats.h"
#include "gpucheck.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace gpucheck {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

ps::CudaBackend &asCuda(ps::Backend &backend)
{
    return dynamic_cast<ps::CudaBackend &>(backend);
}

} // namespace

int benchMatmul(ps::Backend &cuda)
{
    struct Shape
    {
        int64_t batch, m, n, k;
    };
    const Shape shapes[] = { { 1, 512, 512, 512 }, { 1, 1024, 1024, 1024 }, { 1, 2048, 2048, 2048 },
        { 1, 4096, 4096, 4096 }, { 1, 8192, 8192, 8192 }, { 1, 8192, 4096, 1024 }, { 64, 128, 128, 64 } };
    std::cout << "### matmul: interpreter kernel vs raw cublasSgemm (float32, no TF32)\n\n"
              << "| shape (batch x M x N x K) | kernel ms | kernel TFLOP/s | cuBLAS ms | cuBLAS TFLOP/s | "
                 "kernel / cuBLAS throughput | max |diff| |\n"
              << "|---|---|---|---|---|---|---|\n";
    ps::CudaBackend &backend = asCuda(cuda);
    cublasHandle_t handle = nullptr;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
        std::cout << "cublasCreate failed\n";
        return 1;
    }
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    int status = 0;
    for (const Shape &s : shapes) {
        const std::vector<int64_t> xs
            = s.batch > 1 ? std::vector<int64_t> { s.batch, s.m, s.k } : std::vector<int64_t> { s.m, s.k };
        const std::vector<int64_t> ys
            = s.batch > 1 ? std::vector<int64_t> { s.batch, s.k, s.n } : std::vector<int64_t> { s.k, s.n };
        std::vector<int64_t> os = xs;
        os.back() = s.n;
        const std::string text = "{\n" + dataOp(0, "x", xs) + dataOp(1, "y", ys)
            + "    (%2) = \"pd_op.matmul\" (%0, %1) {transpose_x:false,transpose_y:false} : ("
            + tensorType(xs) + ", " + tensorType(ys) + ") -> " + tensorType(os) + "\n}\n";
        const std::unique_ptr<ps::Program> program = parseProgram(text);
        if (!program) {
            std::cout << "| generated program does not parse |\n";
            status = 1;
            continue;
        }
        const ps::Tensor x = cuda.toDevice(randomTensor(xs, 1)), y = cuda.toDevice(randomTensor(ys, 2));
        const std::vector<ps::RuntimeValue> inputs { ps::RuntimeValue(x), ps::RuntimeValue(y) };
        const double flops = 2.0 * double(s.batch) * double(s.m) * double(s.n) * double(s.k);
        const int iterations = flops > 5e11 ? 5 : (flops > 5e10 ? 20 : 100);
        std::vector<ps::RuntimeValue> out = runLastOp(*program, cuda, inputs, 3);
        cuda.synchronize();
        backend.startTimer();
        out = runLastOp(*program, cuda, inputs, iterations);
        const double kernelMs = backend.elapsedMs() / iterations;

        ps::Tensor raw(os, ps::DataType::Float32, cuda.allocator());
        const float one = 1.0f, zero = 0.0f;
        auto rawGemm = [&] {
            cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(s.n), int(s.m), int(s.k), &one,
                static_cast<const float *>(y.rawData()), int(s.n), s.k * s.n,
                static_cast<const float *>(x.rawData()), int(s.k), s.m * s.k, &zero,
                static_cast<float *>(raw.rawData()), int(s.n), s.m * s.n, int(s.batch));
        };
        rawGemm();
        cudaDeviceSynchronize();
        cudaEventRecord(e0);
        for (int i = 0; i < iterations; ++i)
            rawGemm();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float rawTotal = 0;
        cudaEventElapsedTime(&rawTotal, e0, e1);
        const double rawMs = rawTotal / iterations;
        double maxDiff = 0;
        compareTensors(cuda.toHost(out[0].tensor()), cuda.toHost(raw), 1e-5, 1e-5, &maxDiff);
        char line[320];
        std::snprintf(line, sizeof line,
            "| %lldx%lldx%lldx%lld | %.4f | %.2f | %.4f | %.2f | %.3f | %.3g |\n", (long long)s.batch,
            (long long)s.m, (long long)s.n, (long long)s.k, kernelMs, flops / kernelMs / 1e9, rawMs,
            flops / rawMs / 1e9, rawMs / kernelMs, maxDiff);
        std::cout << line;
        if (maxDiff > 1e-3)
            status = 1;
        // The target: at least 90% of raw cuBLAS where the GEMM dominates (>= 2 GFLOP).
        if (flops >= 2e9 && rawMs / kernelMs < 0.9)
            status = 1;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cublasDestroy(handle);
    std::cout << "\nTarget: the kernel reaches at least 90% of raw cuBLAS on every shape of 2 GFLOP or more"
              << (status ? " -- **missed** (or a result differs).\n\n" : ": met.\n\n");
    return status;
}

int benchStats(ps::Backend &cuda, int mib)
{
    const int64_t n = int64_t(mib) * (int64_t(1) << 20) / 4;
    ps::Tensor host = randomTensor({ n }, 7, 3.0);
    float *p = host.data<float>();
    // A few special values at known places: NaN, +-Inf, zeros.
    for (int64_t i = 0; i < n; i += n / 97 + 1)
        p[i] = 0.0f;
    p[n / 3] = NAN;
    p[n / 2] = INFINITY;
    p[n - 1] = -INFINITY;
    const ps::Tensor dev = cuda.toDevice(host);
    cuda.synchronize();
    const double bytes = double(n) * 4.0;
    std::cout << "### Statistics over " << mib << " MiB float32 (" << n << " elements)\n\n";
    // Reference: a device-to-device copy of the same bytes (reads + writes).
    ps::Tensor copy(dev.shape(), dev.dtype(), cuda.allocator());
    cudaMemcpy(copy.rawData(), dev.rawData(), size_t(bytes), cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
    auto t0 = Clock::now();
    for (int i = 0; i < 5; ++i)
        cudaMemcpy(copy.rawData(), dev.rawData(), size_t(bytes), cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
    const double copyMs = msSince(t0) / 5;
    copy = ps::Tensor();
    ps::TensorStats s = cuda.stats(dev, 64);
    const int reps = 10;
    t0 = Clock::now();
    for (int i = 0; i < reps; ++i)
        s = cuda.stats(dev, 0);
    const double pass1Ms = msSince(t0) / reps;
    t0 = Clock::now();
    for (int i = 0; i < reps; ++i)
        s = cuda.stats(dev, 64);
    const double bothMs = msSince(t0) / reps;
    char buf[512];
    std::snprintf(buf, sizeof buf,
        "| measure | ms | GB/s |\n|---|---|---|\n"
        "| reference: device-to-device copy (read + write) | %.3f | %.0f |\n"
        "| pass 1 only (bins = 0): moments, counts, min/max | %.3f | %.0f |\n"
        "| both passes (64 bins), tensor bytes / time | %.3f | %.0f |\n"
        "| both passes, bytes read (2 x tensor) / time | %.3f | %.0f |\n"
        "| pass 2 alone (difference) | %.3f | %.0f |\n\n",
        copyMs, 2 * bytes / copyMs / 1e6, pass1Ms, bytes / pass1Ms / 1e6, bothMs, bytes / bothMs / 1e6,
        bothMs, 2 * bytes / bothMs / 1e6, bothMs - pass1Ms, bytes / std::max(bothMs - pass1Ms, 1e-6) / 1e6);
    std::cout << buf;
    const ps::TensorStats h = ps::computeStatsHost(host, 64);
    std::string problems;
    if (h.count != s.count || h.nanCount != s.nanCount || h.posInfCount != s.posInfCount
        || h.negInfCount != s.negInfCount || h.zeroCount != s.zeroCount)
        problems += " counts differ;";
    if (h.min != s.min || h.max != s.max)
        problems += " min/max differ;";
    if (std::abs(h.mean - s.mean) > 1e-9 * std::max(1.0, std::abs(h.mean))
        || std::abs(h.std - s.std) > 1e-9 * std::max(1.0, h.std))
        problems += " mean/std differ;";
    if (h.histogram != s.histogram)
        problems += " histogram differs;";
    std::snprintf(buf, sizeof buf,
        "Check against computeStatsHost: %s (device mean %.12g std %.12g, host mean %.12g std %.12g; nan "
        "%lld, "
        "+inf %lld, -inf %lld, zeros %lld).\n\n",
        problems.empty() ? "**match**" : ("**MISMATCH**" + problems).c_str(), s.mean, s.std, h.mean, h.std,
        (long long)s.nanCount, (long long)s.posInfCount, (long long)s.negInfCount, (long long)s.zeroCount);
    std::cout << buf;
    const double readTbPerS = 2 * bytes / bothMs / 1e9;
    std::snprintf(buf, sizeof buf,
        "Target: statistics with a histogram read the tensor twice at >= 2.8 TB/s: %.2f TB/s -- %s.\n\n",
        readTbPerS, readTbPerS >= 2.8 ? "met" : "**missed**");
    std::cout << buf;
    return problems.empty() && readTbPerS >= 2.8 ? 0 : 1;
}

int benchOverhead(ps::Backend &cuda)
{
    std::cout << "### Host overhead per op (1-element tensors)\n\n| op | backend | async us/op | synced "
                 "us/op |\n|---|---|---|---|\n";
    const std::vector<int64_t> one { 1 };
    const std::string relu = "{\n" + dataOp(0, "x", one)
        + "    (%1) = \"pd_op.relu\" (%0) {} : (tensor<1xf32>) -> tensor<1xf32>\n}\n";
    const std::string add = "{\n" + dataOp(0, "x", one) + dataOp(1, "y", one)
        + "    (%2) = \"pd_op.add\" (%0, %1) {} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>\n}\n";
    const std::string matmul = "{\n" + dataOp(0, "x", { 1, 1 }) + dataOp(1, "y", { 1, 1 })
        + "    (%2) = \"pd_op.matmul\" (%0, %1) {transpose_x:false,transpose_y:false} : (tensor<1x1xf32>, "
          "tensor<1x1xf32>) -> tensor<1x1xf32>\n}\n";
    std::unique_ptr<ps::Backend> cpu = ps::createCpuBackend();
    double reluUs = 0;
    for (const auto &[name, text, arity, rank] : { std::tuple { "relu", relu, 1, 1 },
             std::tuple { "add", add, 2, 1 }, std::tuple { "matmul", matmul, 2, 2 } }) {
        const std::unique_ptr<ps::Program> program = parseProgram(text);
        for (ps::Backend *backend : { &cuda, cpu.get() }) {
            std::vector<ps::RuntimeValue> inputs;
            for (int i = 0; i < arity; ++i)
                inputs.emplace_back(backend->toDevice(
                    randomTensor(rank == 2 ? std::vector<int64_t> { 1, 1 } : one, uint64_t(i))));
            runLastOp(*program, *backend, inputs, 100);
            backend->synchronize();
            const int iterations = 20000;
            auto t0 = Clock::now();
            runLastOp(*program, *backend, inputs, iterations);
            backend->synchronize();
            const double asyncUs = msSince(t0) * 1000 / iterations;
            if (backend == &cuda && std::string(name) == "relu")
                reluUs = asyncUs;
            t0 = Clock::now();
            for (int i = 0; i < 2000; ++i) {
                runLastOp(*program, *backend, inputs, 1);
                backend->synchronize();
            }
            const double syncUs = msSince(t0) * 1000 / 2000;
            char line[200];
            std::snprintf(line, sizeof line, "| %s | %s | %.2f | %.2f |\n", name, backend->name().c_str(),
                asyncUs, syncUs);
            std::cout << line;
        }
    }
    std::cout << "\n";
    std::cout << "Target: at most 10 us of host time per asynchronous op (relu on " << cuda.name() << ": "
              << reluUs << " us) -- " << (reluUs <= 10.0 ? "met" : "**missed**") << ".\n\n";
    return reluUs <= 10.0 ? 0 : 1;
}

namespace {

/// Replaces every `from` in `text`; returns how many.
int replaceAll(std::string &text, const std::string &from, const std::string &to)
{
    int count = 0;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
        ++count;
    }
    return count;
}

bool saveNpy(const std::string &path, const ps::Tensor &t)
{
    std::string error;
    return ps::NpyIO::write(path, t, error);
}

} // namespace

int benchTransformer(const std::vector<std::string> &args, ps::Backend &cuda, ps::Backend &cpu)
{
    if (args.size() < 8) {
        std::cout << "usage: transformer BUNDLE WORK B S D H FF STEPS\n";
        return 1;
    }
    const std::string bundle = args[0], work = args[1];
    int64_t sizes[6] = {};
    const char *const names[6] = { "B", "S", "D", "H", "FF", "STEPS" };
    for (size_t i = 0; i < 6; ++i) {
        std::string why;
        const std::optional<uint64_t> v = ps::NumberText::parseUnsigned(args[2 + i], 1, 1u << 20, why);
        if (!v) {
            std::cout << "transformer: " << names[i] << ": " << why << "\n";
            return 1;
        }
        sizes[i] = int64_t(*v);
    }
    const int64_t B = sizes[0], S = sizes[1], D = sizes[2], H = sizes[3], FF = sizes[4];
    const int steps = int(sizes[5]);
    std::ifstream in(bundle + "/train_program.txt");
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    std::cout << "### Transformer encoder training step (d_model " << D << ", heads " << H << ", ff " << FF
              << ", batch " << B << ", seq " << S << ")\n\n";
    // The bundle's program was traced at d_model 8, 2 heads: its shapes live in three constants.
    char scale[64];
    std::snprintf(scale, sizeof scale, "value:%.9g", 1.0 / std::sqrt(double(D / H)));
    if (replaceAll(
            text, "value:[0,0,2,4]", "value:[0,0," + std::to_string(H) + "," + std::to_string(D / H) + "]")
            != 3
        || replaceAll(text, "value:[0,0,8]", "value:[0,0," + std::to_string(D) + "]") != 1
        || replaceAll(text, "value:0.5", scale) != 1) {
        std::cout << "the bundle's program does not have the expected constants; skipped\n\n";
        return 1;
    }
    const std::unique_ptr<ps::Program> program = parseProgram(text);
    if (!program) {
        std::cout << "the scaled program does not parse\n\n";
        return 1;
    }
    std::map<std::string, ps::Tensor> host;
    host["_jst.0.x.0"] = randomTensor({ B, S, D }, 11);
    uint64_t seed = 100;
    const auto linear = [&](const std::string &name, int64_t fanIn, int64_t fanOut) {
        host[name + ".w_0"] = randomTensor({ fanIn, fanOut }, ++seed, 1.0 / std::sqrt(double(fanIn)));
        host[name + ".b_0"] = randomTensor({ fanOut }, ++seed, 1.0 / std::sqrt(double(fanIn)));
    };
    for (const char *name : { "linear_0", "linear_1", "linear_2", "linear_3" })
        linear(name, D, D);
    linear("linear_4", D, FF);
    linear("linear_5", FF, D);
    for (const char *name : { "layer_norm_0", "layer_norm_1" }) {
        ps::Tensor w = randomTensor({ D }, ++seed, 0.1);
        for (int64_t i = 0; i < D; ++i)
            w.data<float>()[i] += 1.0f;
        host[std::string(name) + ".w_0"] = w;
        host[std::string(name) + ".b_0"] = randomTensor({ D }, ++seed, 0.1);
    }
    for (const auto &[name, t] : host)
        saveNpy(work + "/" + name + ".npy", t);
    std::map<std::string, ps::Tensor> device;
    for (const auto &[name, t] : host)
        device[name] = cuda.toDevice(t);
    ProgramRun run = runProgram(*program, cuda, device, true);
    if (!run.error.empty()) {
        std::cout << "CUDA run failed: " << run.error << "\n\n";
        return 1;
    }
    for (const auto &[name, t] : run.outputs)
        saveNpy(work + "/out_" + name + ".npy", t);
    runProgram(*program, cuda, device, false);
    const auto t0 = Clock::now();
    for (int i = 0; i < steps; ++i)
        runProgram(*program, cuda, device, false);
    const double stepMs = msSince(t0) / steps;
    std::ofstream(work + "/pirscope_step_ms.txt") << stepMs << "\n";
    char line[256];
    std::snprintf(line, sizeof line,
        "PIRScope CUDA: **%.3f ms/step** (%d ops, %.1f us/op, forward + backward, synchronized per "
        "step).\n\n",
        stepMs, run.ops, stepMs * 1000 / run.ops);
    std::cout << line;
    // Small-size numerics: the same scaled program against the CPU oracle at batch 2, seq 3.
    if (B * S * D <= 1 << 16) {
        const ProgramRun oracle = runProgram(*program, cpu, host, true);
        double maxDiff = 0;
        std::string mismatch = oracle.error;
        for (const auto &[name, t] : run.outputs)
            if (auto it = oracle.outputs.find(name); it != oracle.outputs.end()) {
                const std::string m = compareTensors(t, it->second, 1e-3, 1e-4, &maxDiff);
                if (!m.empty() && mismatch.empty())
                    mismatch = name + ": " + m;
            }
        std::snprintf(line, sizeof line, "CUDA vs CPU oracle on this step: %s (max |diff| %.3g).\n\n",
            mismatch.empty() ? "match" : ("**mismatch** " + mismatch).c_str(), maxDiff);
        std::cout << line;
        return mismatch.empty() ? 0 : 1;
    }
    return 0;
}

} // namespace gpucheck
