// `selftest`: the CUDA backend's own machinery on the device, Qt-free: host <-> device copies
// through the pinned staging (empty, ring-sized, chunked, unaligned sizes), an allocation that
// cannot succeed followed by ordinary work, statistics of an offset view, an inplace op whose
// result must land in its input's device storage, an op run on the CPU fallback, and a freed
// device value read back as poison.

#include "core/runtime/backend.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/scope.h"
#include "core/runtime/tensorstats.h"
#include "core/ir/program.h"
#include "gpucheck.h"

#include <cmath>
#include <cstring>
#include <iostream>

namespace gpucheck {
namespace {

std::string copiesRoundTrip(ps::Backend &cuda)
{
    for (int64_t n : { int64_t(0), int64_t(1), int64_t(1000), int64_t(16385), int64_t(3) << 20, (int64_t(9) << 20) + 3 }) {
        ps::Tensor host = ps::Tensor::empty({ n }, ps::DataType::Int32);
        for (int64_t i = 0; i < n; ++i)
            host.data<int32_t>()[i] = int32_t(uint32_t(i) * 2654435761u);
        const ps::Tensor dev = cuda.toDevice(host);
        if (dev.device() != cuda.device())
            return "toDevice left " + std::to_string(n) + " elements on " + dev.device().name();
        const ps::Tensor back = cuda.toHost(dev);
        if (back.byteSize() != host.byteSize() || std::memcmp(back.rawData(), host.rawData(), host.byteSize()) != 0)
            return "a round trip of " + std::to_string(n) + " int32 elements changed them";
    }
    return {};
}

std::string outOfMemoryThenWork(ps::Backend &cuda)
{
    try {
        ps::Tensor huge({ int64_t(1) << 50 }, ps::DataType::Float32, cuda.allocator());
        return "an allocation of 4 PiB succeeded";
    } catch (const ps::OutOfMemory &e) {
        if (std::string(e.what()).find("out of memory") == std::string::npos)
            return std::string("the OutOfMemory message does not say so: ") + e.what();
    }
    // The next op must still work.
    const std::unique_ptr<ps::Program> program = parseProgram("{\n" + dataOp(0, "x", { 4 }) + dataOp(1, "y", { 4 })
        + "    (%2) = \"pd_op.add\" (%0, %1) {} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n}\n");
    const ps::Tensor x = randomTensor({ 4 }, 1), y = randomTensor({ 4 }, 2);
    const auto out = runLastOp(*program, cuda, { ps::RuntimeValue(cuda.toDevice(x)), ps::RuntimeValue(cuda.toDevice(y)) });
    const std::vector<double> got = cuda.toHost(out[0].tensor()).toDoubles();
    for (int i = 0; i < 4; ++i)
        if (std::abs(got[size_t(i)] - (x.valueAsDouble(i) + y.valueAsDouble(i))) > 1e-6)
            return "add after the failed allocation is wrong";
    return {};
}

std::string offsetViewStats(ps::Backend &cuda)
{
    const int64_t n = 100003;
    ps::Tensor host = randomTensor({ n }, 3, 5.0);
    float *p = host.data<float>();
    p[5] = NAN;
    p[7] = INFINITY;
    p[11] = 0.0f;
    const ps::Tensor dev = cuda.toDevice(host);
    const ps::Tensor view(dev.storage(), { n - 3 }, ps::DataType::Float32, 3 * sizeof(float));
    const ps::Tensor hostView(host.storage(), { n - 3 }, ps::DataType::Float32, 3 * sizeof(float));
    const ps::TensorStats g = cuda.stats(view, 64), w = ps::computeStatsHost(hostView, 64);
    if (g.count != w.count || g.nanCount != w.nanCount || g.posInfCount != w.posInfCount || g.min != w.min
        || g.max != w.max || g.histogram != w.histogram || std::abs(g.mean - w.mean) > 1e-9 * std::abs(w.mean))
        return "the statistics of an offset view differ from the host's";
    return {};
}

/// `relu_` through the interpreter: its result must be its input's device storage.
std::string inplaceOnDevice(ps::Backend &cuda)
{
    const std::shared_ptr<const ps::Program> program(parseProgram("{\n" + dataOp(0, "x", { 6 })
        + "    (%1) = \"pd_op.relu_\" (%0) {} : (tensor<6xf32>) -> tensor<6xf32>\n"
          "    () = \"builtin.shadow_output\" (%1) {output_name:\"out\"} : (tensor<6xf32>) -> \n}\n"));
    ps::Scope scope;
    const ps::Tensor x = cuda.toDevice(ps::Tensor::fromDoubles({ 6 }, ps::DataType::Float32,
        std::vector<double> { -1, 2, -3, 4, -5, 6 }));
    scope.set("x", ps::RuntimeValue(x));
    ps::Interpreter in({ { "main", program, {}, {} } }, cuda, scope);
    in.continueRun();
    if (!in.finished())
        return "the relu_ program did not finish: " + (in.error() ? in.error()->toString() : std::string());
    const ps::RuntimeValue *out = scope.find("out");
    if (!out || !out->isTensor() || out->tensor().storage() != x.storage())
        return "relu_'s result does not share its input's device storage";
    if (cuda.toHost(x).toDoubles() != std::vector<double> { 0, 2, 0, 4, 0, 6 })
        return "relu_ did not write into its input";
    return {};
}

} // namespace

int selfTest(ps::Backend &cuda)
{
    std::cout << "### Self-test on " << cuda.name() << "\n\n| check | result |\n|---|---|\n";
    int failed = 0;
    for (const auto &[name, fn] : { std::pair { "host <-> device copies (pinned staging, ring and chunks)", &copiesRoundTrip },
             std::pair { "an impossible allocation, then an op", &outOfMemoryThenWork },
             std::pair { "statistics of an offset view", &offsetViewStats },
             std::pair { "inplace relu_ writes its device input", &inplaceOnDevice } }) {
        std::string error;
        try {
            error = fn(cuda);
        } catch (const std::exception &e) {
            error = e.what();
        }
        std::cout << "| " << name << " | " << (error.empty() ? "ok" : "**FAILED** " + error) << " |\n";
        failed += error.empty() ? 0 : 1;
    }
    std::cout << "\n";
    return failed == 0 ? 0 : 1;
}

} // namespace gpucheck
