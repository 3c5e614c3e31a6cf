"""sample_distorted_bounding_box results are TF's named tuples (as TF 2.21 prints them)."""
import eagerflow as tf

BOXES = [[[0.1, 0.1, 0.9, 0.9]]]


def test_named_results_and_values():
    tf.random.set_seed(None)  # (the values below are TF's with no global seed)
    r = tf.image.stateless_sample_distorted_bounding_box([10, 10, 3], BOXES, seed=(1, 2),
                                                         min_object_covered=0.3)
    assert type(r).__name__ == "StatelessSampleDistortedBoundingBox"
    assert r._fields == ("begin", "size", "bboxes")
    assert repr(r).startswith("StatelessSampleDistortedBoundingBox(begin=<tf.Tensor: shape=(3,)")
    assert r.size.numpy().tolist() == [9, 9, -1]  # TF 2.21's draw
    r = tf.image.sample_distorted_bounding_box([10, 10, 3], BOXES, seed=5)
    assert type(r).__name__ == "SampleDistortedBoundingBoxV2"
    assert r.begin.numpy().tolist() == [0, 5, 0] and r.size.numpy().tolist() == [4, 4, -1]
    r = tf.compat.v1.image.sample_distorted_bounding_box([10, 10, 3], BOXES, seed=5)
    assert type(r).__name__ == "SampleDistortedBoundingBoxV2"


def test_unpacks_inside_function():
    @tf.function
    def crop(image):
        begin, size, _ = tf.image.stateless_sample_distorted_bounding_box(
            tf.shape(image), BOXES, seed=(1, 2), min_object_covered=0.3)
        return tf.slice(image, begin, size)
    assert crop(tf.zeros([10, 10, 3])).shape == (9, 9, 3)
