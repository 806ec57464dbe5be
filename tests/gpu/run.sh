#!/usr/bin/env bash
# The GPU verdict of PIRScope in one call: run from the repository root on a machine with an
# NVIDIA GPU, with the kit tests/gpu/prepare.sh built on the CPU machine in gpu-kit/ (nothing is
# compiled here; no network or Qt needed). Stages, in order: device info, kernel fixtures per
# family (CUDA vs their expected arrays and the CPU oracle), golden bundles + `verify --device
# cuda` (op by op against the CPU), the Qt-free self-test, the stress cases, compute-sanitizer
# memcheck/racecheck on a few mid-size cases, then the benchmarks with their targets (matmul >=
# 90% of raw cuBLAS, 1 GiB statistics >= 2.8 TB/s, host overhead <= 10 us/op, a transformer
# training step <= 1.0x PyTorch eager).
#
# Every stage runs under the global deadline (PIRSCOPE_GPU_DEADLINE seconds from the start,
# default 540) and appends its row to $OUT/summary.md as it ends; details go to $OUT/details.md.
# The last line of summary.md is always `VERDICT: PASS|FAIL|INCOMPLETE`: FAIL when a stage
# failed, INCOMPLETE when one was skipped or cut by the deadline or the script was terminated,
# PASS otherwise. Exit status 0 PASS, 1 FAIL, 3 INCOMPLETE.
#
# Environment: OUT (default ./gpu-out), PIRSCOPE_GPU_KIT (default ./gpu-kit),
# PIRSCOPE_GPU_DEADLINE (seconds), PIRSCOPE_GPU_CHECK / PIRSCOPE_GPU_CLI (the programs; default
# $KIT/bin/pirscope-gpu-check and pirscope-cli), PIRSCOPE_GPU_SANITIZER (compute-sanitizer's path,
# or none), PIRSCOPE_GPU_QUICK=1 (quick stress sizes, no sanitizer or benchmarks: for cuda-sim).

set -u

ROOT=$(pwd)
KIT=${PIRSCOPE_GPU_KIT:-$ROOT/gpu-kit}
OUT=${OUT:-$ROOT/gpu-out}
DEADLINE=${PIRSCOPE_GPU_DEADLINE:-540}
CHECK=${PIRSCOPE_GPU_CHECK:-$KIT/bin/pirscope-gpu-check}
CLI=${PIRSCOPE_GPU_CLI:-$KIT/bin/pirscope-cli}
QUICK=${PIRSCOPE_GPU_QUICK:-0}
FIXTURES=$ROOT/tests/fixtures
START=$(date +%s)
END=$((START + DEADLINE))
mkdir -p "$OUT"
SUMMARY=$OUT/summary.md
DETAILS=$OUT/details.md
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pirscope-gpu.XXXXXX")
FAILED=0
INCOMPLETE=0
DONE=0
CODE=3
CHILD=

# The kit's own libraries (simdjson) first, then the CUDA toolkit's (or PyTorch's CUDA wheels).
for d in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib64 "$KIT/lib"; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
if ! ldconfig -p 2>/dev/null | grep -q libcublas.so.13 && [ ! -e /usr/local/cuda/lib64/libcublas.so.13 ]; then
    for pkg in cublas cuda_runtime; do
        d=$(python3 -c "import nvidia.$pkg, os; print(os.path.join(os.path.dirname(nvidia.$pkg.__file__), 'lib'))" 2>/dev/null) \
            && [ -d "$d" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d"
    done
fi
command -v compute-sanitizer >/dev/null 2>&1 || export PATH="$PATH:/usr/local/cuda/bin"

verdict() {
    [ "$DONE" = 1 ] && return "$CODE"
    DONE=1
    local v=PASS
    [ "$INCOMPLETE" != 0 ] && v=INCOMPLETE
    [ "$FAILED" != 0 ] && v=FAIL
    {
        echo
        echo "$FAILED stage(s) failed, $INCOMPLETE incomplete; $(($(date +%s) - START)) s of a $DEADLINE s deadline. Details: details.md."
        echo
        echo "VERDICT: $v"
    } >>"$SUMMARY"
    rm -rf "$WORK"
    case $v in PASS) CODE=0 ;; FAIL) CODE=1 ;; *) CODE=3 ;; esac
    return "$CODE"
}

on_signal() {
    [ -n "$CHILD" ] && kill -TERM "$CHILD" 2>/dev/null
    echo "| (terminated) | **INCOMPLETE**: the script was stopped | $(($(date +%s) - START)) s |" >>"$SUMMARY"
    INCOMPLETE=$((INCOMPLETE + 1))
    verdict
    exit "$CODE"
}
trap on_signal TERM INT HUP
trap 'verdict; exit "$CODE"' EXIT

# stage NAME LIMIT_S COMMAND...: runs COMMAND (its Markdown output goes to details.md) under
# min(LIMIT_S, time left before the deadline), then appends its row to summary.md.
stage() {
    local name=$1 limit=$2
    shift 2
    local left=$((END - $(date +%s) - 5))
    if [ "$left" -lt 3 ]; then
        echo "| $name | **INCOMPLETE**: skipped, the deadline has passed | 0 s |" >>"$SUMMARY"
        INCOMPLETE=$((INCOMPLETE + 1))
        return 3
    fi
    [ "$limit" -gt "$left" ] && limit=$left
    local t0 rc status
    t0=$(date +%s)
    echo "## $name" >>"$DETAILS"
    echo >>"$DETAILS"
    timeout --kill-after=3 "$limit" "$@" >"$WORK/stage.out" 2>"$WORK/stage.err" &
    CHILD=$!
    wait "$CHILD"
    rc=$?
    CHILD=
    case $rc in
    0) status=ok ;;
    124 | 137) status="**INCOMPLETE**: stopped after ${limit} s"; INCOMPLETE=$((INCOMPLETE + 1)) ;;
    *) status="**FAILED** (exit $rc)"; FAILED=$((FAILED + 1)) ;;
    esac
    cat "$WORK/stage.out" >>"$DETAILS"
    if [ -s "$WORK/stage.err" ]; then
        echo '```' >>"$DETAILS"
        tail -c 20000 "$WORK/stage.err" >>"$DETAILS"
        echo '```' >>"$DETAILS"
    fi
    echo >>"$DETAILS"
    echo "| $name | $status | $(($(date +%s) - t0)) s |" >>"$SUMMARY"
    return $rc
}

{
    echo "# PIRScope GPU check"
    echo
    echo "Commit \`$(cat "$KIT/COMMIT" 2>/dev/null || git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)\`, kit built $(cat "$KIT/BUILT" 2>/dev/null || echo '?'), run $(date -u '+%Y-%m-%d %H:%M UTC'), deadline $DEADLINE s."
    echo
    echo '```'
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 | head -3
    echo '```'
    echo
    echo "| stage | status | time |"
    echo "|---|---|---|"
} >"$SUMMARY"
: >"$DETAILS"

if [ ! -x "$CHECK" ]; then
    echo "| kit | **FAILED**: no $CHECK (run tests/gpu/prepare.sh on the CPU machine and carry gpu-kit) | 0 s |" >>"$SUMMARY"
    FAILED=1
    exit 1
fi

stage "device info" 30 "$CHECK" info
if [ $? = 2 ]; then
    echo "| (no usable CUDA device: the device stages are skipped) | **INCOMPLETE** | 0 s |" >>"$SUMMARY"
    INCOMPLETE=$((INCOMPLETE + 1))
    exit 3
fi
for family in elementwise shape nn grad; do
    stage "kernel fixtures: $family" 60 "$CHECK" kernels "$FIXTURES/kernels" "/$family/"
done
stage "golden bundles: train programs, CUDA vs CPU" 60 "$CHECK" bundles "$FIXTURES/paddle"
for b in "$FIXTURES"/paddle/*/; do
    name=$(basename "$b")
    device=cuda
    [ "$QUICK" = 1 ] && device=cuda-sim
    stage "verify $name --device $device" 40 "$CLI" verify "${b%/}" --device "$device"
done
stage "self-test" 60 "$CHECK" selftest
if [ "$QUICK" = 1 ]; then
    stage "stress cases (quick)" 120 env PIRSCOPE_CUDA_FORCE_WIDE_INDEX=1 PIRSCOPE_CUDA_COLUMN_BUDGET=20000 "$CHECK" stress --quick
    exit
fi
stage "stress cases" 120 "$CHECK" stress

SANITIZER=${PIRSCOPE_GPU_SANITIZER:-$(command -v compute-sanitizer || true)}
if [ -n "$SANITIZER" ] && [ "$SANITIZER" != none ]; then
    stage "memcheck: nn fixtures (conv, pool, norms, softmax)" 90 "$SANITIZER" --tool memcheck --error-exitcode 3 \
        --print-limit 20 "$CHECK" kernels "$FIXTURES/kernels" "/nn/"
    stage "racecheck: shared-memory kernels (reductions, norms, softmax, statistics)" 90 "$SANITIZER" --tool racecheck \
        --error-exitcode 3 --print-limit 20 "$CHECK" stress --quick
else
    echo "| compute-sanitizer | **INCOMPLETE**: not found | 0 s |" >>"$SUMMARY"
    INCOMPLETE=$((INCOMPLETE + 1))
fi

stage "benchmark: host overhead per op (<= 10 us)" 60 "$CHECK" bench-overhead
stage "benchmark: matmul vs raw cuBLAS (>= 90%)" 90 "$CHECK" bench-matmul
stage "benchmark: statistics over 1 GiB (>= 2.8 TB/s)" 60 "$CHECK" bench-stats 1024
TX="32 256 512 8 2048"
mkdir -p "$WORK/tx"
# shellcheck disable=SC2086
stage "benchmark: transformer step on CUDA" 60 "$CHECK" transformer "$FIXTURES/paddle/transformer_encoder" "$WORK/tx" $TX 20
if python3 -c 'import torch, numpy' >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    stage "benchmark: transformer step vs PyTorch eager (<= 1.0x, results match)" 90 python3 \
        "$ROOT/tests/gpu/torch_transformer_step.py" "$WORK/tx" $TX 20
else
    echo "| PyTorch comparison | **INCOMPLETE**: torch or numpy not importable | 0 s |" >>"$SUMMARY"
    INCOMPLETE=$((INCOMPLETE + 1))
fi
exit
