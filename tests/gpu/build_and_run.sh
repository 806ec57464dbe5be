#!/usr/bin/env bash
# The GPU verdict without a kit built ahead: on the GPU machine (CUDA toolkit, CMake, a C++20
# compiler; no network, no Qt), builds pirscope-cli and pirscope-gpu-check with the CUDA backend
# against the simdjson that `tests/gpu/prepare.sh --deps` put in gpu-kit/deps, installs them into
# gpu-kit/bin and gpu-kit/lib as prepare.sh would (gpu-kit/COMMIT, written by --deps, names the
# commit), then runs tests/gpu/run.sh with the time left.
# On an H200 machine's 16 cores the build takes about 100 s (prepare.sh on two cores: 30 min).
#
#   device tool: run with carry ["gpu-kit"], timeout_s 600, command `bash tests/gpu/build_and_run.sh`
#
# Environment: OUT (default ./gpu-out; build.log goes there too), PIRSCOPE_GPU_BUDGET (seconds for
# build + checks, default 560), PIRSCOPE_CUDA_ARCH (default 90-real), JOBS (default nproc).
# Exit status: run.sh's (0 PASS, 1 FAIL, 3 INCOMPLETE), or 2 when the build failed.
set -u
START=$(date +%s)
ROOT=$(pwd)
KIT=${PIRSCOPE_GPU_KIT:-$ROOT/gpu-kit}
OUT=${OUT:-$ROOT/gpu-out}
BUILD=${PIRSCOPE_GPU_BUILD:-$ROOT/build-gpu}
export OUT
command -v nvcc >/dev/null 2>&1 || export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p "$OUT"
if [ ! -e "$KIT/deps/usr/include/simdjson.h" ]; then
    echo "build_and_run.sh: no $KIT/deps (run tests/gpu/prepare.sh --deps on the CPU machine and carry gpu-kit)" >&2
    exit 2
fi
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
{
    cmake -S "$ROOT" -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DPIRSCOPE_GUI=OFF \
        -DPIRSCOPE_TESTS=OFF -DPIRSCOPE_CUDA=ON -DPIRSCOPE_CUDA_SIM=OFF -DPIRSCOPE_BLAS=OFF -DPIRSCOPE_MIMALLOC=OFF \
        -DCMAKE_CUDA_ARCHITECTURES="${PIRSCOPE_CUDA_ARCH:-90-real}" -DCMAKE_PREFIX_PATH="$KIT/deps/usr" &&
        cmake --build "$BUILD" -j "${JOBS:-$(nproc)}" --target pirscope-cli pirscope-gpu-check
} >"$OUT/build.log" 2>&1
if [ $? -ne 0 ] || ! grep -q "PIRScope: CUDA backend enabled" "$OUT/build.log"; then
    echo "build_and_run.sh: the build failed after $(($(date +%s) - START)) s; the end of $OUT/build.log:" >&2
    tail -40 "$OUT/build.log" >&2
    exit 2
fi
mkdir -p "$KIT/bin" "$KIT/lib"
cp "$BUILD/app/cli/pirscope-cli" "$BUILD/tests/gpu/pirscope-gpu-check" "$KIT/bin/"
cp "$KIT"/deps/usr/lib/x86_64-linux-gnu/libsimdjson.so.* "$KIT/lib/"
date -u '+%Y-%m-%d %H:%M UTC (on the GPU machine)' >"$KIT/BUILT"
echo "build_and_run.sh: built in $(($(date +%s) - START)) s"
export PIRSCOPE_GPU_DEADLINE=$((${PIRSCOPE_GPU_BUDGET:-560} - ($(date +%s) - START)))
bash "$ROOT/tests/gpu/run.sh"
code=$?
cat "$OUT/summary.md"
exit $code
