"""A 2-D convolution layer written with plain Python loops over numpy arrays.

Running this script builds a random batch of images, pushes it through one
convolution layer (3x3 kernels, stride 2, padding 2, ReLU), reports how long the
forward pass took and appends that time to submission.csv.
"""

import csv
import time

import numpy as np

BATCH, HEIGHT, WIDTH, CHANNELS = 8, 32, 32, 3
FILTERS, KERNEL, STRIDE, PADDING = 8, 3, 2, 2


def relu(values: np.ndarray) -> np.ndarray:
    """Negative entries become 0; the shape is unchanged."""
    return values * (values > 0)


def pad_images(images: np.ndarray, pad: int, value: float = 0.0) -> np.ndarray:
    """Pad a [batch, height, width, channels] array by ``pad`` pixels on every side
    of the two spatial axes."""
    if images.ndim != 4:
        raise ValueError("expected images shaped [batch, height, width, channels]")
    widths = ((0, 0), (pad, pad), (pad, pad), (0, 0))
    return np.pad(images, widths, mode="constant", constant_values=value)


class Conv2DLayer:
    """A convolution layer.

    ``kernel_matrices`` has shape [kernel, kernel, input_channels, num_filters] and
    ``biases`` shape [1, 1, 1, num_filters]; both start random. ``padding`` is an
    integer number of pixels (None means no padding); ``activation`` is 'relu' or None.
    """

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

    def window_response(self, window: np.ndarray, kernel: np.ndarray, bias: float) -> float:
        """One output value: the window times one kernel, summed, plus that kernel's bias."""
        if window.shape != kernel.shape:
            raise ValueError("window and kernel must have the same shape")
        return float(np.sum(window * kernel) + bias)

    def forward(self, batch: np.ndarray) -> np.ndarray:
        """Convolve every image of ``batch`` ([batch, height, width, channels]) with every
        kernel; returns [batch, new_height, new_width, num_filters]."""
        pad = self.padding if isinstance(self.padding, int) else 0
        n_images, height, width, _ = batch.shape
        size, _, _, n_filters = self.kernel_matrices.shape
        out_h = (height + 2 * pad - size) // self.stride + 1
        out_w = (width + 2 * pad - size) // self.stride + 1
        padded = pad_images(batch, pad)
        result = np.zeros([n_images, out_h, out_w, n_filters])

        # The slow part: one small multiply-and-sum per image, output pixel and kernel.
        for image in range(n_images):
            picture = padded[image]
            for row in range(out_h):
                top = row * self.stride
                for col in range(out_w):
                    left = col * self.stride
                    window = picture[top : top + size, left : left + size, :]
                    for k in range(n_filters):
                        kernel = self.kernel_matrices[:, :, :, k]
                        bias = self.biases[0, 0, 0, k]
                        result[image, row, col, k] = self.window_response(window, kernel, bias)

        if self.activation == "relu":
            return relu(result)
        return result


if __name__ == "__main__":
    images = np.random.randn(BATCH, HEIGHT, WIDTH, CHANNELS)
    layer = Conv2DLayer(CHANNELS, FILTERS, KERNEL, STRIDE, PADDING, "relu")
    started = time.time()
    layer.forward(images)
    elapsed = time.time() - started
    print(f"Time taken for the forward pass: {elapsed} s")
    with open("submission.csv", "a+", newline="") as handle:
        csv.writer(handle, delimiter=";").writerow([elapsed])
