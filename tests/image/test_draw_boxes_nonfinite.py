"""draw_bounding_boxes with NaN, inf or huge coordinates draws (or skips) the box as TF's
kernel does, where such a coordinate converts to int64's smallest value (recorded from
TensorFlow 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("box, painted", [
    ([0.0, np.nan, 1.0, 1.0], 12.0),   # left edge off the image: the other three drawn
    ([0.0, 0.0, np.inf, 1.0], 0.0),    # inverted: not drawn
    ([0.0, 0.0, 1e30, 1.0], 0.0),
    ([-np.inf, 0.0, 0.5, 0.5], 5.0),   # top edge off the image
])
def test_non_finite_box_coordinates(box, painted):
    image = np.zeros((1, 4, 5, 1), np.float32)
    out = tf.image.draw_bounding_boxes(image, np.array([[box]], np.float32),
                                       np.array([[1.0]], np.float32))
    assert float(tf.reduce_sum(out)) == painted
