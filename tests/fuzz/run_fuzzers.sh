#!/usr/bin/env bash
# Short libFuzzer runs of the readers (PIR JSON, PIR text, trace-bundle manifests, .npy,
# .pdiparams, Paddle run logs), seeded with small real programs and the repository's own fixtures.
#   bash tests/fuzz/run_fuzzers.sh BUILD_DIR [SECONDS]
# Fails when a fuzzer finds a crash, a leak or a sanitizer report (the reproducer is kept in
# BUILD_DIR/fuzz-artifacts/).
set -euo pipefail
build=$1
seconds=${2:-20}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
samples=$here/../shared/samples
artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"

run() {
    local target=$1
    shift
    local corpus
    corpus=$(mktemp -d)
    local i=0
    for seed in "$@"; do
        # Bundles all hold a program.json: number the copies so none overwrites another.
        [ -f "$seed" ] && cp "$seed" "$corpus/$((i++))-$(basename "$seed")"
    done
    echo "fuzzing $target for ${seconds}s with $(ls "$corpus" | wc -l) seed(s)"
    "$build/tests/fuzz/$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/$target-" "$corpus" 2>&1 | tail -n 12
    rm -rf "$corpus"
}

run fuzz_pirjsonreader "$samples/json/docs_pir_save_load_fc_example.v1.json" \
    "$here/resources/examples/lenet_bn.json" "$here"/tests/fixtures/paddle/*/program.json
run fuzz_pirtextreader "$samples"/text/*.txt "$here/resources/examples/lenet_bn.txt"
run fuzz_manifest "$here"/tests/fixtures/paddle/*/manifest.json
run fuzz_npy $(ls "$here"/tests/fixtures/paddle/*/inputs/*.npy "$here"/tests/fixtures/image/*.npy | head -n 24)
run fuzz_pdiparams "$here/resources/examples/lenet_bn.pdiparams"
run fuzz_paddlerunlog "$here"/tests/fixtures/paddle/mlp_ce/paddle_run.log "$here"/tests/fixtures/paddle/nan_log/paddle_run.log
echo "fuzzing finished without findings"
