"""Times what Paddle's dy2static does to turn a traced forward program into the train program.

The counterpart of `pirscope-cli bench pipeline`: the same two model families with the same
layer counts and sizes (ps::SyntheticProgram generates them op for op as Paddle traces them), so
the figures can be compared directly. Tracing is excluded; the pieces are Paddle 3.3.1's
`PartialProgramLayer._create_program` steps (python/paddle/jit/dy2static/pir_partial_program.py):

  clone              origin_runnable_program.clone()
  backward           _append_backward(clone): full_like seeds, ir_backward.grad, shadow outputs,
                     FullGraphPreProcessPass, RunnableProgram (`grad` is also timed on its own)
  split              split_forward_backward() (paddle.base.libpaddle.pir.split_program)
  program_name_attr  get_value_name over the split attributes
  total              clone + backward + split + program_name_attr, timed as one
  program_attr       program_attr after the split (unify_value_names)
  create_program     _create_program() (passes included, CSE on) + program_attr

Each figure is the best of --repeat runs (default 5), as wall-clock and as thread CPU time. Needs
PaddlePaddle 3.3.1 (CPU is enough); never run in CI. At 10000 ops one run takes minutes (Paddle's
backward is Python): use --repeat 1 there.

Usage:
  python3 tools/bench_paddle_create_program.py [--ops 10000] [--kind mlp|transformer] [--json]
  python3 tools/bench_paddle_create_program.py --kind transformer --layers 2 \
      --dump-program /tmp/transformer_2.txt --repeat 0
"""

import argparse
import gc
import json
import sys
import time

# ps::SyntheticProgram's sizes: top-level ops = FIXED_OPS + layers * OPS_PER_LAYER.
FIXED_OPS = 3
OPS_PER_LAYER = {"mlp": 8, "transformer": 50}
MLP = {"width": 64, "batch": 32}
TRANSFORMER = {"d_model": 64, "heads": 4, "dim_feedforward": 256, "batch": 2, "seq_len": 16}


def layers_for_ops(kind, ops):
    return max(1, (ops - FIXED_OPS) // OPS_PER_LAYER[kind] if ops > FIXED_OPS else 0)


def build_model(kind, layers):
    import paddle
    import paddle.nn as nn
    import paddle.nn.functional as F

    class DeepMlp(nn.Layer):
        def __init__(self, layers, width):
            super().__init__()
            self.linears = nn.LayerList([nn.Linear(width, width) for _ in range(layers)])
            self.norms = nn.LayerList([nn.LayerNorm(width) for _ in range(layers)])

        def forward(self, x):
            for k in range(len(self.linears)):
                x = self.linears[k](x)
                x = F.relu(x) if k % 2 == 0 else F.gelu(x)
                x = self.norms[k](x)
            return x.mean()

    class TransformerStack(nn.Layer):
        def __init__(self, layers, d_model, heads, dim_feedforward):
            super().__init__()
            layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward, dropout=0.0, activation="gelu")
            self.enc = nn.TransformerEncoder(layer, layers)

        def forward(self, x):
            return self.enc(x).mean()

    if kind == "mlp":
        model = DeepMlp(layers, MLP["width"])
        x = paddle.randn([MLP["batch"], MLP["width"]])
    else:
        t = TRANSFORMER
        model = TransformerStack(layers, t["d_model"], t["heads"], t["dim_feedforward"])
        x = paddle.randn([t["batch"], t["seq_len"], t["d_model"]])
    x.stop_gradient = False
    return model, x


def now():
    """(wall, thread CPU) seconds: on a loaded machine the CPU time shows what the wall clock hides."""
    return time.perf_counter(), time.thread_time()


class Timer:
    """Accumulates the time of every call of a wrapped function (for `grad` inside `_append_backward`)."""

    def __init__(self, fn):
        self.fn = fn
        self.seconds = (0.0, 0.0)

    def __call__(self, *args, **kwargs):
        t0 = now()
        try:
            return self.fn(*args, **kwargs)
        finally:
            t1 = now()
            self.seconds = (self.seconds[0] + t1[0] - t0[0], self.seconds[1] + t1[1] - t0[1])


def measure(partial, repeat):
    """Best wall and best CPU time per piece over `repeat` runs: ({piece: s}, {piece: s})."""
    import paddle.jit.dy2static.pir_partial_program as ppp
    from paddle.jit.dy2static.utils import backend_guard

    grad_timer = Timer(ppp.grad)
    ppp.grad = grad_timer
    wall, cpu = {}, {}

    def keep(name, start, end):
        wall[name] = min(wall.get(name, float("inf")), end[0] - start[0])
        cpu[name] = min(cpu.get(name, float("inf")), end[1] - start[1])

    origin = partial.origin_runnable_program
    gc.disable()
    try:
        for run in range(repeat):
            with backend_guard(partial._backend):
                t0 = now()
                train = origin.clone()
                t1 = now()
                grad_timer.seconds = (0.0, 0.0)
                train = partial._append_backward(train)
                t2 = now()
                train.forward_program  # noqa: B018 (cached_property: runs split_forward_backward)
                t3 = now()
                train.program_name_attr  # noqa: B018
                t4 = now()
                train.program_attr  # noqa: B018
                t5 = now()
                keep("clone", t0, t1)
                keep("backward", t1, t2)
                keep("grad", (0.0, 0.0), grad_timer.seconds)
                keep("split", t2, t3)
                keep("program_name_attr", t3, t4)
                keep("total", t0, t4)
                keep("program_attr", t4, t5)
                del train
                gc.collect()

                t0 = now()
                whole = partial._create_program()
                whole.program_attr  # noqa: B018
                keep("create_program", t0, now())
                print(
                    f"run {run + 1}/{repeat}: "
                    + ", ".join(f"{k} {wall[k] * 1e3:.1f} ms (cpu {cpu[k] * 1e3:.1f})" for k in wall),
                    file=sys.stderr,
                    flush=True,
                )
                del whole
                gc.collect()
    finally:
        gc.enable()
        ppp.grad = grad_timer.fn
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=10000, help="about this many forward ops (default 10000)")
    parser.add_argument("--kind", choices=["mlp", "transformer"], default="mlp")
    parser.add_argument("--layers", type=int, help="layer count (overrides --ops)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure, best kept (default 5)")
    parser.add_argument("--dump-program", metavar="FILE", help="write the traced forward program (PIR text)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import paddle

    paddle.seed(2024)
    layers = args.layers if args.layers else layers_for_ops(args.kind, args.ops)
    model, x = build_model(args.kind, layers)
    model.train()
    t0 = time.perf_counter()
    static_layer = paddle.jit.to_static(model, full_graph=True)
    concrete, partial = static_layer.forward.get_concrete_program(x, is_train=True)
    trace_seconds = time.perf_counter() - t0
    program = concrete.main_program
    forward_ops = len(program.global_block().ops)
    if args.dump_program:
        with open(args.dump_program, "w") as f:
            f.write(str(program))

    figures, cpu = measure(partial, args.repeat) if args.repeat > 0 else ({}, {})
    # Op counts as in `pirscope-cli bench pipeline`: the origin program has the output_0 shadow output.
    result = {
        "kind": args.kind,
        "layers": layers,
        "forward_ops": len(partial.origin_runnable_program.program.global_block().ops),
        "traced_ops": forward_ops,
        "paddle_version": paddle.__version__,
        "trace_seconds": trace_seconds,
        "seconds": figures,
        "cpu_seconds": cpu,
    }
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    print(
        f"paddle {paddle.__version__} {args.kind}: {layers} layers, {result['forward_ops']} forward ops "
        f"(trace {trace_seconds * 1e3:.0f} ms)"
    )
    print(f"  best of {args.repeat} runs          wall           cpu")
    for key in ("clone", "backward", "grad", "split", "program_name_attr", "total", "program_attr", "create_program"):
        if key in figures:
            print(f"  {key:<20} {figures[key] * 1e3:10.3f} ms  {cpu[key] * 1e3:10.3f} ms")


if __name__ == "__main__":
    main()
