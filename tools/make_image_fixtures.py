"""Writes tests/fixtures/image: two tiny netpbm images and the input tensors a vision model gets
from them (tst_imagetensor), computed independently of PIRScope: the resize is Paddle's
bilinear interpolate (align_corners=False, align_mode=0) on the float samples.

    python3 tools/make_image_fixtures.py tests/fixtures/image
"""

import os
import sys

import numpy as np
import paddle
import paddle.nn.functional as F

MEAN = np.array([0.485, 0.456, 0.406])
STD = np.array([0.229, 0.224, 0.225])


def write_netpbm(path, pixels):
    h, w = pixels.shape[:2]
    magic = b"P6" if pixels.ndim == 3 else b"P5"
    with open(path, "wb") as f:
        f.write(magic + b"\n# tst_imagetensor fixture\n%d %d\n255\n" % (w, h))
        f.write(pixels.astype(np.uint8).tobytes())


def resize_nchw(x, h, w):
    t = paddle.to_tensor(x.astype(np.float64))
    return F.interpolate(t, size=[h, w], mode="bilinear", align_corners=False, align_mode=0).numpy()


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    rgb = rng.integers(0, 256, size=(4, 5, 3), dtype=np.int64)  # H=4, W=5
    gray = rng.integers(0, 256, size=(4, 5), dtype=np.int64)
    write_netpbm(os.path.join(out, "rgb5x4.ppm"), rgb)
    write_netpbm(os.path.join(out, "gray5x4.pgm"), gray)

    # RGB to float32[1, 3, 3, 7], ImageNet mean/std.
    x = rgb.transpose(2, 0, 1)[None].astype(np.float64)
    y = resize_nchw(x, 3, 7) / 255.0
    y = (y - MEAN[None, :, None, None]) / STD[None, :, None, None]
    np.save(os.path.join(out, "rgb5x4_nchw_3x7_imagenet.npy"), y.astype(np.float32))

    # RGB to gray float32[1, 1, 6, 3] (ITU-R 601 weights), ImageNet mean/std averaged.
    g = (0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2])[None, None]
    y = (resize_nchw(g, 6, 3) / 255.0 - 0.449) / 0.226
    np.save(os.path.join(out, "rgb5x4_gray_6x3_imagenet.npy"), y.astype(np.float32))

    # Gray to RGB float64 NHWC [2, 2, 2, 3] (the batch repeats the image), not normalised.
    x = np.repeat(gray[None, None].astype(np.float64), 3, axis=1)
    y = resize_nchw(x, 2, 2) / 255.0
    y = np.repeat(y.transpose(0, 2, 3, 1), 2, axis=0)
    np.save(os.path.join(out, "gray5x4_nhwc_2x2_none.npy"), y.astype(np.float64))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/image")
