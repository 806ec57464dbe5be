#!/usr/bin/env bash
# Regenerates the README's tour pictures (resources/screenshots/*.png) with pirscope --screenshot,
# offscreen, at the window size --screenshot uses (1600x1000).
#   bash tools/make_tour.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gui=${1:-$here/build}/app/gui/pirscope
samples=$here/../shared/samples
out=$here/resources/screenshots
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
"$gui" "$samples/json/PP-OCRv5_mobile_det_infer.inference.json" --screenshot "$out/graph.png"
"$gui" "$here/resources/examples/lenet_bn.json" --debug-steps 12 --screenshot "$out/debugger.png"
"$gui" "$here/resources/examples/lenet_bn.json" --mode train --view split --screenshot "$out/split.png"
ls -l "$out"
