"""PIRScope's CPU forward (oneDNN and the plain kernels) against Paddle's CPU predictor, one thread each.

Needs PaddlePaddle (3.3.1 was measured) and a PIRScope build; CI has no Paddle and never runs this.
    python3 tools/bench_cpu_vs_paddle.py [--cli build/app/cli/pirscope-cli] [--runs 10] [--work DIR]
                                         [--models resnet18,mobilenet_v3_small,ppocrv5_mobile_det]

For each model, in one run of this script and one after the other on the same machine:
  paddle      paddle.inference with its default CPU pipeline (oneDNN on, IR optimisation on),
              set_cpu_math_library_num_threads(1); oneDNN off where Paddle's oneDNN executor
              refuses the program (3.3.1 on PP-OCRv5 det), and the table says so
  cpu         `pirscope-cli bench run --device cpu` (the oneDNN kernels) on the saved program
  cpu-fused   the same after the `inference-onednn` pass pipeline (`--pipeline inference-onednn`:
              Paddle's oneDNN fusions, constant folding), the program Paddle's predictor runs
  cpu-plain   `pirscope-cli bench run --device cpu-plain` (the plain kernels, the oracle)
PIRScope runs with OMP_NUM_THREADS=1 (Debian's oneDNN uses OpenMP) and OPENBLAS_NUM_THREADS=1.
The three are measured in --rounds rounds (Paddle, then cpu, then cpu-plain in each), --runs runs
each after a warm-up run; each figure is the best run of all rounds (on a shared machine the best
is what the code costs; the median, beside it, what the machine allowed), and each PIRScope
device's best over Paddle's.

Models: ResNet-18 and MobileNetV3-small (scale 1.0), 1000 classes, 1x3x224x224, exported here with
paddle.jit.save (default initialisation); PP-OCRv5 mobile det from ../shared/samples (its .yml's
1x3x736x736) with seeded random parameters written as a .pdiparams beside a copy of the program, so
both sides run the same numbers.
"""

import argparse
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SAMPLES = os.path.join(os.path.dirname(ROOT), "shared", "samples", "json")
DET = "PP-OCRv5_mobile_det_infer.inference"


def export_vision(folder, name, shape):
    import paddle
    nets = {
        "resnet18": lambda: paddle.vision.models.resnet18(num_classes=1000),
        "mobilenet_v3_small": lambda: paddle.vision.models.MobileNetV3Small(scale=1.0, num_classes=1000),
    }
    paddle.seed(7)
    net = nets[name]()
    net.eval()
    spec = [paddle.static.InputSpec(shape, "float32", "x")]
    paddle.jit.save(paddle.jit.to_static(net, input_spec=spec, full_graph=True), os.path.join(folder, "inference"))


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def write_pdiparams(path, tensors):
    """tensors: (name, float32 array) pairs; written sorted by name (core/runtime/pdiparams.h)."""
    with open(path, "wb") as f:
        for _, a in sorted(tensors, key=lambda t: t[0]):
            desc = b"\x08" + varint(5) + b"".join(b"\x10" + varint(int(d)) for d in a.shape)
            f.write(struct.pack("<IQI", 0, 0, 0))
            f.write(struct.pack("<i", len(desc)))
            f.write(desc)
            f.write(np.ascontiguousarray(a, dtype=np.float32).tobytes())


def prepare_det(folder):
    import paddle
    from paddle.base import core
    program_path = os.path.join(SAMPLES, DET + ".json")
    shutil.copy(program_path, os.path.join(folder, "inference.json"))
    shutil.copy(os.path.join(SAMPLES, DET + ".yml"), os.path.join(folder, "inference.yml"))
    paddle.enable_static()
    program = paddle.static.Program()
    core.deserialize_pir_program(program_path, program, 1)
    paddle.disable_static()
    rng = np.random.default_rng(5)
    tensors = []
    for op in program.global_block().ops:
        if op.name() != "builtin.parameter":
            continue
        name = op.attrs()["parameter_name"]
        shape = list(op.result(0).shape)
        lo, hi = (0.5, 1.5) if name.startswith("batch_norm") and name.endswith(".w_2") else (-0.1, 0.1)
        tensors.append((name, rng.uniform(lo, hi, shape).astype(np.float32)))
    write_pdiparams(os.path.join(folder, "inference.pdiparams"), tensors)


class PaddleRunner:
    """One predictor per model, kept across rounds: oneDNN on; where Paddle's oneDNN executor
    refuses the program (3.3.1 on PP-OCRv5 det: "ConvertPirAttribute2RuntimeAttribute not support
    [pir::ArrayAttribute<pir::DoubleAttribute>]", nearest_interp's scale), oneDNN off, said so."""

    def __init__(self, folder, shape):
        self.what = "oneDNN"
        try:
            self.predictor = self.create(folder, shape, True)
            self.predictor.run()
        except RuntimeError as e:  # Paddle raises its C++ errors as RuntimeError and its subclasses
            print(f"  Paddle with oneDNN failed: {str(e).splitlines()[0][:160]}; measured with oneDNN off",
                  file=sys.stderr)
            self.what = "oneDNN off"
            self.predictor = self.create(folder, shape, False)
            self.predictor.run()

    @staticmethod
    def create(folder, shape, onednn):
        import paddle.inference as pi
        config = pi.Config(os.path.join(folder, "inference.json"), os.path.join(folder, "inference.pdiparams"))
        config.disable_gpu()
        if onednn:
            config.enable_mkldnn()
        else:
            config.disable_mkldnn()
        config.set_cpu_math_library_num_threads(1)
        config.switch_ir_optim(True)
        config.disable_glog_info()
        predictor = pi.create_predictor(config)
        handle = predictor.get_input_handle(predictor.get_input_names()[0])
        handle.copy_from_cpu(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
        return predictor

    def times(self, runs):
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            self.predictor.run()
            times.append(time.perf_counter() - t0)
        return times


# name -> (device, pass pipeline or None)
VARIANTS = {"cpu": ("cpu", None), "cpu-fused": ("cpu", "inference-onednn"), "cpu-plain": ("cpu-plain", None)}


def pirscope_times(cli, folder, variant, shape, runs):
    device, pipeline = VARIANTS[variant]
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    dims = "x".join(str(d) for d in shape)
    extra = ["--pipeline", pipeline] if pipeline else []
    out = subprocess.run([cli, "bench", "run", os.path.join(folder, "inference.json"), "--device", device, "--runs",
                          str(runs), "--shape", "x=" + dims, "--json"] + extra, env=env, check=True,
                         capture_output=True, text=True).stdout
    report = json.loads(out)
    return report["best_seconds"], report["median_seconds"], report["backend"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "cli", "pirscope-cli"))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default=None)
    parser.add_argument("--models", default="resnet18,mobilenet_v3_small,ppocrv5_mobile_det")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="pirscope-bench-")
    shapes = {"resnet18": [1, 3, 224, 224], "mobilenet_v3_small": [1, 3, 224, 224],
              "ppocrv5_mobile_det": [1, 3, 736, 736]}
    rows = []
    for model in args.models.split(","):
        folder = os.path.join(work, model)
        os.makedirs(folder, exist_ok=True)
        if not os.path.exists(os.path.join(folder, "inference.pdiparams")):
            if model == "ppocrv5_mobile_det":
                prepare_det(folder)
            else:
                export_vision(folder, model, shapes[model])
        paddle = PaddleRunner(folder, shapes[model])
        best = {"paddle": [], "cpu": [], "cpu-fused": [], "cpu-plain": []}
        medians = {"paddle": [], "cpu": [], "cpu-fused": [], "cpu-plain": []}
        backends = {}
        for _ in range(args.rounds):
            t = paddle.times(args.runs)
            best["paddle"].append(min(t))
            medians["paddle"].append(statistics.median(t))
            for device in VARIANTS:
                b, m, backends[device] = pirscope_times(args.cli, folder, device, shapes[model], args.runs)
                best[device].append(b)
                medians[device].append(m)
        row = {k: (min(best[k]), statistics.median(medians[k])) for k in best}
        rows.append((model, row, paddle.what))
        print(f"{model}: " + ", ".join(f"{k} {v[0] * 1e3:.1f} ms" for k, v in row.items()), file=sys.stderr)

    print(f"one thread each; best (median) of {args.rounds} rounds of {args.runs} runs in ms, each round "
          f"Paddle then cpu, cpu-fused, cpu-plain; ratio = PIRScope / Paddle, best runs")
    print(f"{'model':<20} {'Paddle':>17} {'PIRScope cpu':>17} {'ratio':>6} {'cpu-fused':>17} {'ratio':>6} "
          f"{'cpu-plain':>17} {'ratio':>6}  Paddle ran")
    for model, row, what in rows:
        pb, pm = row["paddle"]
        cells = "".join(f"{row[k][0] * 1e3:7.1f} ({row[k][1] * 1e3:7.1f}) {row[k][0] / pb:6.2f} "
                        for k in ("cpu", "cpu-fused", "cpu-plain"))
        print(f"{model:<20} {pb * 1e3:7.1f} ({pm * 1e3:7.1f}) {cells} {what}")
    print(f"PIRScope cpu: {backends['cpu']}; cpu-plain: {backends['cpu-plain']}")


if __name__ == "__main__":
    main()
