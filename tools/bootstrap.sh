#!/usr/bin/env bash
# Sets up a Debian 12 machine for PIRScope, builds it, then either opens the GUI on the bundled
# example (`run`) or runs the whole test suite (`test`). Idempotent; run as root (or with sudo).
#   bash tools/bootstrap.sh run [FILE]   build and open pirscope (default: the bundled example)
#   bash tools/bootstrap.sh test         build and run ctest, then the core tests again under ASan + UBSan
#                                        and a short fuzz run of every reader
set -euo pipefail
mode=${1:-test}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PIRSCOPE_BUILD_DIR:-$here/build}
jobs=$(nproc)

packages=(build-essential cmake ninja-build pkg-config git
          qt6-base-dev qt6-svg-dev libgl-dev libgraphviz-dev graphviz libsimdjson-dev libopenblas-dev libdnnl-dev libmimalloc-dev
          python3-numpy fonts-dejavu-core clang libclang-rt-14-dev libre2-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The CUDA backend is built by tests/gpu/run.sh on a machine with a GPU (its kernels take about
# half an hour of nvcc time on two cores); set PIRSCOPE_CUDA=ON to build it here too.
# -O2 without debug info: -g costs a third of the compile time (cuda-sim's cudagradkernels.cpp:
# 61 s with it, 41 s without), and CI builds the whole tree on two cores. Configure by hand with
# -DCMAKE_BUILD_TYPE=RelWithDebInfo for symbols.
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DPIRSCOPE_CUDA="${PIRSCOPE_CUDA:-OFF}"
cmake --build "$build" -j "$jobs"

case "$mode" in
run)
    shift || true
    [ $# -gt 0 ] || set -- "$here/resources/examples/lenet_bn.json"
    exec "$build/app/gui/pirscope" "$@"
    ;;
test)
    (cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$jobs")
    # Sanitizer stage: core, the CLI, the core tests and libFuzzer targets of every reader (PIR
    # JSON and text, manifests, .npy, .pdiparams) built once with clang, ASan + UBSan (every report
    # fatal) and coverage counters; then the core tests run on that build and each fuzzer runs for
    # a short while, seeded with the real samples and the fixtures. -O0 with line tables keeps the
    # build short (the CPU kernels' templates take 5x longer at -O1 under the sanitizers) and the
    # reports readable. Neither the GUI (Qt is not instrumented) nor cuda-sim (the CUDA kernels'
    # sources, which the CPU build's tests run) is built here.
    sanitize_build=${build}-sanitize
    CC=clang CXX=clang++ cmake -S "$here" -B "$sanitize_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS_RELEASE="-O0 -gline-tables-only" -DCMAKE_C_FLAGS_RELEASE="-O0 -gline-tables-only" \
        -DPIRSCOPE_GUI=OFF -DPIRSCOPE_TESTS=ON -DPIRSCOPE_CUDA=OFF -DPIRSCOPE_CUDA_SIM=OFF -DPIRSCOPE_SANITIZE=ON \
        -DPIRSCOPE_FUZZ=ON
    cmake --build "$sanitize_build" -j "$jobs"
    (cd "$sanitize_build" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --output-on-failure -j "$jobs")
    bash "$here/tests/fuzz/run_fuzzers.sh" "$sanitize_build" "${PIRSCOPE_FUZZ_SECONDS:-15}"
    ;;
*)
    echo "usage: $0 run [FILE] | test" >&2
    exit 2
    ;;
esac
