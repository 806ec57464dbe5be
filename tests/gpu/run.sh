#!/usr/bin/env bash
# GPU checks and benchmarks of PIRScope, run from the repository root on a machine with a CUDA
# device (no Qt needed). Builds core + pirscope-cli + pirscope-gpu-check with CUDA (sm_90), then:
# kernel fixtures on CUDA vs their expected arrays and the CPU oracle, the golden training
# bundles on CUDA vs CPU, compute-sanitizer memcheck on a subset, and the benchmarks (matmul vs
# raw cuBLAS, statistics bandwidth over 1 GiB, host overhead per op, a transformer training step
# vs PyTorch eager). Everything lands in $OUT/summary.md (plus log.txt); a failing stage is
# recorded there and the next stages still run.
#
# simdjson: when CMake cannot find it, the script unpacks libsimdjson-dev + libsimdjson14 .deb
# files from .deb/, shared/debs/ or tests/gpu/deps/ (apt-get download on a Debian 12 machine;
# they only need glibc 2.14 and GLIBCXX 3.4.21, so they run on Ubuntu 24.04) into a private
# prefix.

set -u

ROOT=$(pwd)
OUT=${OUT:-$ROOT/gpu-out}
BUILD=${PIRSCOPE_GPU_BUILD:-/tmp/pirscope-gpu-build}
WORK=${PIRSCOPE_GPU_WORK:-/tmp/pirscope-gpu-work}
ARCH=${PIRSCOPE_CUDA_ARCH:-90}
mkdir -p "$OUT" "$WORK"
command -v nvcc >/dev/null 2>&1 || export PATH="$PATH:/usr/local/cuda/bin"
SUMMARY=$OUT/summary.md
LOG=$OUT/log.txt
: >"$LOG"
START=$(date +%s)
STAGES=""
FAILED=0

note() { echo "$*" >>"$SUMMARY"; }

# stage NAME TIMEOUT_S OUTPUT_FILE COMMAND...: runs COMMAND with stdout into OUTPUT_FILE and stderr
# into the log; a *.md output is appended to the summary. Records status and duration.
stage() {
    local name=$1 limit=$2 md=$3
    shift 3
    local t0 rc status
    t0=$(date +%s)
    echo "=== $name: $*" >>"$LOG"
    timeout --kill-after=10 "$limit" "$@" >"$md" 2>>"$LOG"
    rc=$?
    case $rc in
    0) status=ok ;;
    124 | 137) status="TIMEOUT after ${limit}s" ;;
    *) status="FAILED (exit $rc)" ;;
    esac
    [ $rc -ne 0 ] && FAILED=$((FAILED + 1))
    STAGES="$STAGES| $name | $status | $(($(date +%s) - t0)) s |
"
    case $md in *.md) [ -s "$md" ] && cat "$md" >>"$SUMMARY" ;; *) cat "$md" >>"$LOG" ;; esac
    echo "=== $name: $status" >>"$LOG"
    return $rc
}

{
    echo "# PIRScope GPU check"
    echo
    echo "Commit: \`$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)\`$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -q . && echo ' (with local changes)'), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo '```'
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 | head -3
    nvcc --version 2>&1 | tail -1
    g++ --version 2>&1 | head -1
    cmake --version 2>&1 | head -1
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tail -1
    echo '```'
    echo
} >"$SUMMARY"

# ---- simdjson ----
simdjson_prefix() {
    local probe=$WORK/simdjson-probe
    mkdir -p "$probe"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(p CXX)\nfind_package(simdjson REQUIRED)\n' >"$probe/CMakeLists.txt"
    if cmake -S "$probe" -B "$probe/build" >/dev/null 2>&1; then
        echo "simdjson: found by CMake"
        return 0
    fi
    local prefix=$WORK/simdjson-prefix found=0
    rm -rf "$prefix"
    for dir in "$ROOT/.deb" "$ROOT/shared/debs" "$ROOT/tests/gpu/deps"; do
        for deb in "$dir"/libsimdjson*.deb; do
            [ -f "$deb" ] || continue
            dpkg -x "$deb" "$prefix" && found=1
        done
    done
    if [ $found = 0 ]; then
        echo "simdjson: not installed and no libsimdjson*.deb in .deb/, shared/debs/ or tests/gpu/deps/"
        return 1
    fi
    export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
    export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "simdjson: unpacked from .deb files into $prefix"
}
note "$(simdjson_prefix)"
note
# simdjson_prefix ran in a subshell: repeat its exports here when it unpacked the debs.
if [ -d "$WORK/simdjson-prefix/usr" ]; then
    export CMAKE_PREFIX_PATH="$WORK/simdjson-prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
    export LD_LIBRARY_PATH="$WORK/simdjson-prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

# ---- build ----
GENERATOR="Unix Makefiles"
command -v ninja >/dev/null 2>&1 && GENERATOR=Ninja
JOBS=$(nproc 2>/dev/null || echo 8)
note "## Build"
note
stage configure 180 "$WORK/configure.txt" cmake -S "$ROOT" -B "$BUILD" -G "$GENERATOR" -DPIRSCOPE_GUI=OFF \
    -DPIRSCOPE_TESTS=OFF -DPIRSCOPE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$ARCH" -DCMAKE_BUILD_TYPE=RelWithDebInfo
grep -E "PIRScope:|simdjson|CMake Error" "$WORK/configure.txt" | sed 's/^/    /' >>"$SUMMARY"
note
stage build 420 "$WORK/build.txt" cmake --build "$BUILD" -j "$JOBS" --target pirscope_core pirscope-cli pirscope-gpu-check
grep -E "error|FAILED" "$WORK/build.txt" | head -20 | sed 's/^/    /' >>"$SUMMARY"
note

CHECK=$BUILD/tests/gpu/pirscope-gpu-check
CLI=$BUILD/app/cli/pirscope-cli
HAVE_DEVICE=1
if [ ! -x "$CHECK" ]; then
    note "**pirscope-gpu-check was not built; the remaining stages are skipped (see log.txt).**"
    note
else
    note "## Checks"
    note
    stage info 60 "$WORK/info.md" "$CHECK" info
    HAVE_DEVICE=$?
fi
if [ -x "$CHECK" ] && [ "$HAVE_DEVICE" = 2 ]; then
    note "**No usable CUDA device: the device stages are skipped.**"
    note
elif [ -x "$CHECK" ]; then
    stage kernel-fixtures 240 "$WORK/kernels.md" "$CHECK" kernels "$ROOT/tests/fixtures/kernels"
    stage bundles 180 "$WORK/bundles.md" "$CHECK" bundles "$ROOT/tests/fixtures/paddle"
    if [ -x "$CLI" ]; then
        note "### pirscope-cli verify: each bundle's dy2static pipeline on the CPU vs Paddle, then CUDA vs CPU op by op"
        note
        VERIFY_ROWS="| bundle | result | CUDA differential |
|---|---|---|
"
        for b in "$ROOT"/tests/fixtures/paddle/*/; do
            name=$(basename "$b")
            stage "verify $name" 90 "$WORK/verify-$name.txt" "$CLI" verify "${b%/}"
            result=$(grep -E "^numerics:" "$WORK/verify-$name.txt" | tail -1)
            differential=$(grep -E "kernel ops agree|first divergence|cuda: skipped" "$WORK/verify-$name.txt" | head -1 | sed 's/^ *//; s/|/\//g')
            VERIFY_ROWS="$VERIFY_ROWS| $name | ${result:-see log.txt} | ${differential} |
"
        done
        printf '%s\n' "$VERIFY_ROWS" >>"$SUMMARY"
    fi
    SANITIZER=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
    if [ -n "$SANITIZER" ]; then
        note "### compute-sanitizer memcheck (kernel fixtures: nn/, grad/ and shape/ cases)"
        note
        for subset in nn grad shape; do
            stage "memcheck $subset/" 150 "$WORK/memcheck-$subset.txt" "$SANITIZER" --tool memcheck --error-exitcode 3 \
                --print-limit 20 "$CHECK" kernels "$ROOT/tests/fixtures/kernels" "/$subset/"
            note "- $subset/: $(grep -E 'cases:' "$WORK/memcheck-$subset.txt" | head -1 | tr -d '*')"
            grep -E "^========= (Invalid|Program hit|ERROR SUMMARY)" "$WORK/memcheck-$subset.txt" | sort | uniq -c \
                | head -10 | sed 's/^/    /' >>"$SUMMARY"
        done
        note
    else
        note "compute-sanitizer not found: memcheck skipped."
        note
    fi

    note "## Benchmarks"
    note
    stage overhead 120 "$WORK/overhead.md" "$CHECK" bench-overhead
    stage matmul 180 "$WORK/matmul.md" "$CHECK" bench-matmul
    stage statistics 180 "$WORK/stats.md" "$CHECK" bench-stats 1024
    BUNDLE=$ROOT/tests/fixtures/paddle/transformer_encoder
    mkdir -p "$WORK/tx-small" "$WORK/tx-large"
    stage "transformer (bundle size)" 120 "$WORK/tx-small.md" "$CHECK" transformer "$BUNDLE" "$WORK/tx-small" 2 3 8 2 16 50
    TX="32 256 512 8 2048"
    # shellcheck disable=SC2086
    stage "transformer (32x256, d 512)" 180 "$WORK/tx-large.md" "$CHECK" transformer "$BUNDLE" "$WORK/tx-large" $TX 20
    if python3 -c 'import torch, numpy' >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        stage "pytorch eager step" 240 "$WORK/torch.md" python3 "$ROOT/tests/gpu/torch_transformer_step.py" \
            "$WORK/tx-large" $TX 20
    else
        note "PyTorch (or NumPy) is not importable: the PyTorch comparison is skipped."
        note
    fi
fi

{
    echo "## Stages"
    echo
    echo "| stage | status | time |"
    echo "|---|---|---|"
    printf '%s' "$STAGES"
    echo
    echo "$FAILED stage(s) failed; total $(($(date +%s) - START)) s. Full output: log.txt."
} >>"$SUMMARY"
tail -c 2000000 "$LOG" >"$LOG.tmp" && mv "$LOG.tmp" "$LOG"
exit 0
