"""The convolution layer of train.py, vectorised: one einsum over strided windows."""

import csv
import time

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

BATCH, HEIGHT, WIDTH, CHANNELS = 8, 32, 32, 3
FILTERS, KERNEL, STRIDE, PADDING = 8, 3, 2, 2


def relu(values: np.ndarray) -> np.ndarray:
    return values * (values > 0)


def pad_images(images: np.ndarray, pad: int, value: float = 0.0) -> np.ndarray:
    widths = ((0, 0), (pad, pad), (pad, pad), (0, 0))
    return np.pad(images, widths, mode="constant", constant_values=value)


class Conv2DLayer:
    def __init__(
        self, input_channels, num_filters, kernel_size, stride, padding, activation="relu"
    ):
        self.kernel_matrices = np.random.randn(
            kernel_size, kernel_size, input_channels, num_filters
        )
        self.biases = np.random.randn(1, 1, 1, num_filters)
        self.stride = stride
        self.padding = padding
        self.activation = activation

    def forward(self, batch: np.ndarray) -> np.ndarray:
        pad = self.padding if isinstance(self.padding, int) else 0
        size = self.kernel_matrices.shape[0]
        padded = pad_images(batch, pad)
        # windows: [batch, out_h, out_w, channels, size, size]
        windows = sliding_window_view(padded, (size, size), axis=(1, 2))
        windows = windows[:, :: self.stride, :: self.stride]
        out = np.einsum("bhwcij,ijcf->bhwf", windows, self.kernel_matrices, optimize=True)
        out = out + self.biases
        if self.activation == "relu":
            return relu(out)
        return out


if __name__ == "__main__":
    images = np.random.randn(BATCH, HEIGHT, WIDTH, CHANNELS)
    layer = Conv2DLayer(CHANNELS, FILTERS, KERNEL, STRIDE, PADDING, "relu")
    started = time.time()
    layer.forward(images)
    elapsed = time.time() - started
    print(f"Time taken for the forward pass: {elapsed} s")
    with open("submission.csv", "a+", newline="") as handle:
        csv.writer(handle, delimiter=";").writerow([elapsed])
