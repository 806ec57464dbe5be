"""Writes tests/fixtures/paddle_inplace_ops.txt: the inplace ops (`pd_op.<name>_`) of the installed
Paddle (3.3.1) that have a PIR Python API (`paddle._pir_ops`), one per line, sorted; sparse
dialect ops left out. tst_opregistry checks that PIRScope's op registry has each of them.

    python3 tools/dump_paddle_inplace_ops.py [--out tests/fixtures/paddle_inplace_ops.txt]

With --check NAME... it also builds those ops in a PIR program (arguments as the few
hand-written calls below give them) and prints what Paddle says about each: operand, attribute
and result names and the inplace map (get_op_inplace_info), the facts tools/paddle_3_3_1_ops.yaml
holds.
"""

import argparse
import os

import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "paddle_inplace_ops.txt")


def inplace_op_names():
    names = [n for n in dir(paddle._pir_ops) if n.endswith("_") and not n.startswith("_")]
    return sorted("pd_op." + n for n in names if not n.startswith("sparse_"))


def build(name, x):
    ops = paddle._pir_ops
    calls = {
        "silu_": lambda: ops.silu_(x),
        "dropout_": lambda: ops.dropout_(x, None, 0.5, False, "upscale_in_train", 0, False),
        "trunc_divide_": lambda: ops.trunc_divide_(x, x),
        "random_": lambda: ops.random_(x, 0, 10),
        "rint_grad_": lambda: ops.rint_grad_(x),
        "random_grad_": lambda: ops.random_grad_(x, 0, 10),
    }
    calls[name]()


def check(names):
    from paddle.base import libpaddle

    paddle.enable_static()
    for name in names:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [2, 3], "float32")
            build(name, x)
        for op in main.global_block().ops:
            if op.name() == "pd_op." + name:
                print(op.name(), "operands", op.get_input_names(), "attributes", op.get_attr_names(),
                      "results", op.get_output_names(), "inplace", libpaddle.pir.get_op_inplace_info(op))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--check", nargs="*", default=[])
    args = parser.parse_args()
    names = inplace_op_names()
    with open(args.out, "w") as f:
        f.write("# inplace ops of Paddle %s with a PIR Python API (tools/dump_paddle_inplace_ops.py)\n"
                % paddle.__version__)
        for n in names:
            f.write(n + "\n")
    print("wrote %s (%d ops)" % (os.path.relpath(args.out), len(names)))
    if args.check:
        check(args.check)


if __name__ == "__main__":
    main()
