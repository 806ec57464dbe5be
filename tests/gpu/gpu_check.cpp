// pirscope-gpu-check COMMAND ...: the GPU checks and benchmarks of tests/gpu/run.sh. Output is
// Markdown; the exit status is 0 when the command's checks pass, 1 when one fails, 2 when no
// CUDA device is usable. pirscope-gpu-check-sim is the same program built against cuda-sim
// (PIRSCOPE_CUDA_SIM): CI runs its selftest and quick stress cases, and tests run.sh with it.

#include "core/io/numbertext.h"
#include "core/runtime/cuda/cudaapi.h"
#include "core/runtime/cuda/cudabackend.h"
#include "gpucheck.h"

#include <iostream>

namespace {

int usage()
{
    std::cerr << "usage: pirscope-gpu-check COMMAND ARGS\n"
                 "  info                          device, driver and runtime versions, memory, kernel count\n"
                 "  selftest                      staging, OOM then an op, offset-view stats, inplace\n"
                 "  stress [--quick]              untested paths (chunks, >2^31 elements, fp16/bf16/TF32)\n"
                 "  kernels FIXTURES_DIR [FILTER] kernel fixture cases on CUDA vs expected and CPU\n"
                 "  bundles FIXTURES_DIR          golden bundles' train programs, CUDA vs CPU\n"
                 "  bench-matmul                  matmul kernel vs raw cuBLAS\n"
                 "  bench-stats MIB               statistics bandwidth over MIB MiB\n"
                 "  bench-overhead                host time per small op\n"
                 "  transformer BUNDLE WORK B S D H FF STEPS   scaled training step, saved for PyTorch\n";
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const std::string command = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    std::string reason;
#ifdef PIRSCOPE_CUDA_SIM
    std::unique_ptr<ps::Backend> cuda = ps::createCudaSimBackend(reason);
#else
    std::unique_ptr<ps::Backend> cuda = ps::createCudaBackend(0, reason);
#endif
    if (!cuda) {
        std::cout << "No CUDA backend: " << reason << "\n\n";
        return 2;
    }
    std::unique_ptr<ps::Backend> cpu = ps::createCpuBackend();
    try {
        if (command == "info") {
            const ps::CudaBackend::MemoryInfo m = dynamic_cast<ps::CudaBackend &>(*cuda).memoryInfo();
            int driver = 0, runtime = 0;
            cudaDriverGetVersion(&driver);
            cudaRuntimeGetVersion(&runtime);
            std::cout << "Device: **" << cuda->name() << "**, driver API " << driver / 1000 << "."
                      << driver % 1000 / 10 << ", runtime " << runtime / 1000 << "." << runtime % 1000 / 10
                      << "; " << (m.deviceTotal >> 20) << " MiB total, " << (m.deviceFree >> 20)
                      << " MiB free; " << cuda->kernels().size() << " CUDA kernels, " << cpu->kernels().size()
                      << " CPU kernels (" << cpu->name() << ").\n\n";
            return 0;
        }
        if (command == "kernels" && !args.empty())
            return gpucheck::checkKernelFixtures(
                args[0], *cuda, *cpu, args.size() > 1 ? args[1] : std::string());
        if (command == "bundles" && !args.empty())
            return gpucheck::checkBundles(args[0], *cuda, *cpu);
        if (command == "selftest")
            return gpucheck::selfTest(*cuda);
        if (command == "stress")
            return gpucheck::stressCases(*cuda, *cpu, !args.empty() && args[0] == "--quick");
        if (command == "bench-matmul")
            return gpucheck::benchMatmul(*cuda);
        if (command == "bench-stats") {
            std::string why;
            const std::optional<uint64_t> n = args.empty()
                ? std::optional<uint64_t>(1024)
                : ps::NumberText::parseUnsigned(args[0], 1, 1u << 20, why);
            if (!n) {
                std::cout << "bench-stats: " << why << "\n";
                return 1;
            }
            return gpucheck::benchStats(*cuda, int(*n));
        }
        if (command == "bench-overhead")
            return gpucheck::benchOverhead(*cuda);
        if (command == "transformer")
            return gpucheck::benchTransformer(args, *cuda, *cpu);
    } catch (const std::exception &e) {
        std::cout << "**error**: " << e.what() << "\n\n";
        return 1;
    }
    return usage();
}
