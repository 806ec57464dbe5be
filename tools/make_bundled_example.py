"""Writes the example program that PIRScope opens by default (resources/examples/).

Run with PaddlePaddle installed (`pip install paddlepaddle==3.3.1`):
    python3 tools/make_bundled_example.py resources/examples

It traces a small conv net (conv2d + batch_norm + relu + pool, then two linear layers) with
`paddle.jit.to_static` and saves it with `paddle.jit.save`, which writes PIR JSON
(`lenet_bn.json`) and its parameters (`lenet_bn.pdiparams`). It also writes the PIR text of the
same program as Paddle prints it after reading the JSON back (`lenet_bn.txt`).
"""

import os
import sys

import paddle


class LeNetBN(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv1 = paddle.nn.Conv2D(1, 6, 3, padding=1)
        self.bn1 = paddle.nn.BatchNorm2D(6)
        self.conv2 = paddle.nn.Conv2D(6, 16, 3, padding=1)
        self.bn2 = paddle.nn.BatchNorm2D(16)
        self.pool = paddle.nn.MaxPool2D(2)
        self.fc1 = paddle.nn.Linear(16 * 7 * 7, 32)
        self.fc2 = paddle.nn.Linear(32, 10)

    def forward(self, x):
        x = self.pool(paddle.nn.functional.relu(self.bn1(self.conv1(x))))
        x = self.pool(paddle.nn.functional.relu(self.bn2(self.conv2(x))))
        x = paddle.flatten(x, 1)
        x = paddle.nn.functional.relu(self.fc1(x))
        return paddle.nn.functional.softmax(self.fc2(x))


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "resources/examples"
    os.makedirs(out_dir, exist_ok=True)
    paddle.seed(7)
    net = LeNetBN()
    net.eval()
    spec = [paddle.static.InputSpec([None, 1, 28, 28], "float32", "image")]
    static_net = paddle.jit.to_static(net, input_spec=spec, full_graph=True)
    prefix = os.path.join(out_dir, "lenet_bn")
    paddle.jit.save(static_net, prefix)
    # Print the program exactly as saved (jit.save adds the fetch ops), read back by Paddle.
    program = paddle.static.Program()
    paddle.base.core.deserialize_pir_program(prefix + ".json", program, -1)
    with open(prefix + ".txt", "w") as f:
        f.write(str(program))
    print("wrote", prefix + ".json", prefix + ".pdiparams", prefix + ".txt")


if __name__ == "__main__":
    main()
