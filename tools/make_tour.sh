#!/usr/bin/env bash
# Regenerates the README's tour pictures with `pirscope --screenshot`, offscreen, 1600x1000, with
# settings of their own (the user's saved window layout does not apply). Exits non-zero when a
# shot fails or leaves no PNG. The graph shot opens PP-OCRv5 mobile det from ../shared/samples;
# without the samples it is skipped with a note and the others, made from repository files, run.
#   bash tools/make_tour.sh [BUILD_DIR [OUT_DIR]]     (defaults: build, resources/screenshots)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gui=${1:-$here/build}/app/gui/pirscope
out=${2:-$here/resources/screenshots}
samples=$here/../shared/samples
example=$here/resources/examples/lenet_bn.json
[[ -x $gui ]] || { echo "make_tour: no pirscope at $gui (build it first)" >&2; exit 1; }
mkdir -p "$out"
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$config

# shot NAME ARGS...: runs pirscope ARGS --screenshot OUT/NAME.png and checks the PNG is there.
shot() {
    local png=$out/$1.png
    shift
    rm -f "$png"
    local start=$SECONDS
    "$gui" "$@" --screenshot "$png" || { echo "make_tour: $png: pirscope $* failed" >&2; exit 1; }
    [[ -s $png && $(head -c 8 "$png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] \
        || { echo "make_tour: $png is missing, empty or not a PNG" >&2; exit 1; }
    echo "$png ($((SECONDS - start)) s)"
}

det=$samples/json/PP-OCRv5_mobile_det_infer.inference.json
if [[ -f $det ]]; then
    # A hardswish deep in the backbone: its five layers opened, zoomed in until readable.
    shot graph "$det" --select 0:300
else
    echo "make_tour: graph.png skipped ($det is absent)" >&2
fi
shot split "$example" --mode train --view split --select fwd:25
shot passes "$example" --pipeline inference-gpu --step 9
shot debugger "$example" --steps 12 --inspect %30
# The PIR Text dock: a program with an if and a while, the sin inside the while's body selected.
shot pirtext "$here/tests/fixtures/paddle/control_flow/infer_program.txt" --pir-text --select pd_op.sin --size 1280x720
# The run-log overlay: mlp_ce's real Paddle log with the mean of line 6 (fwd:9 pd_op.matmul) tripled,
# so one op diverges in red and the dock lists it first.
altered=$config/paddle_run.log
awk 'NR == 6 { match($0, /mean=[^,]*/); v = substr($0, RSTART + 5, RLENGTH - 5);
     $0 = substr($0, 1, RSTART + 4) sprintf("%e", v * 3) substr($0, RSTART + RLENGTH) } { print }' \
    "$here/tests/fixtures/paddle/mlp_ce/paddle_run.log" > "$altered"
shot runlog "$here/tests/fixtures/paddle/mlp_ce" --paddle-log "$altered" --select fwd:9 --size 1280x720
# Paddle's intermediates: mlp_ce with element 0 of linear_1.w_0 increased by 1, so PIRScope's run
# differs from Paddle's values first at the matmul reading it (fwd:9) and the gradients inherit it.
cp -r "$here/tests/fixtures/paddle/mlp_ce" "$config/mlp_ce"
python3 - "$config/mlp_ce/params/linear_1.w_0.npy" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
at = 10 + struct.unpack_from("<H", data, 8)[0]  # .npy 1.0: magic, version, header length, header
struct.pack_into("<f", data, at, struct.unpack_from("<f", data, at)[0] + 1.0)
open(sys.argv[1], "wb").write(data)
PY
shot intermediates "$config/mlp_ce" --view split --select fwd:9 --size 1280x720
# The Memory dock: the attention block Paddle's allocator was measured on, its train step op by op.
shot memory "$here/tests/fixtures/memory/attention" --view split --memory --size 1280x720
# The same dock while debugging a train step that frees as Paddle: the measured bytes (green) drawn
# over the prediction up to the op the session is at.
mkdir -p "$config/PIRScope" && printf '[memory]\nfreeAsPaddle=true\n' >> "$config/PIRScope/pirscope.conf"
shot memory_measured "$here/tests/fixtures/paddle/transformer_encoder" --view split --memory --steps 100 --size 1280x720
