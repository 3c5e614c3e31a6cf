"""ResNet-50 training and inference steps on synthetic images.

The model is `keras.applications.ResNet50(weights=None)`: Keras's ResNet-50,
randomly initialized. A training step is a custom one (a `GradientTape` over
the forward pass, softmax cross-entropy, SGD with momentum) traced by
`function`; an inference step is the model called with ``training=False``.
The images are random and so are their labels: the program shows the loss of
the training batch going down as the model memorizes it, and how many images
per second each step processes. ``bench/resnet50.py`` compares the speed with
TensorFlow's.

    python examples/resnet50.py                      # 64x64 images, batch 8
    python examples/resnet50.py --image-size 224 --batch-size 32 --steps 10
"""
import argparse
import time

import numpy as np

import eagerflow as tf


def synthetic_data(batch_size, image_size, classes, seed=0):
    """A batch of random images (ImageNet's value range, preprocessed as for ResNet-50) and
    random labels."""
    rng = np.random.default_rng(seed)
    images = rng.uniform(0, 255, (batch_size, image_size, image_size, 3)).astype("float32")
    images = tf.keras.applications.resnet50.preprocess_input(images)
    labels = rng.integers(0, classes, batch_size)
    return tf.constant(images), tf.constant(labels)


def make_steps(model, learning_rate=0.001):
    optimizer = tf.keras.optimizers.SGD(learning_rate, momentum=0.9)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def train_step(images, labels):
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = loss_fn(labels, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def predict_step(images):
        return model(images, training=False)

    return train_step, predict_step


def images_per_second(step, args, batch_size, steps):
    step(*args)  # the first call traces
    start = time.perf_counter()
    for _ in range(steps):
        out = step(*args)
    float(tf.reduce_sum(out))  # wait for the last result
    return batch_size * steps / (time.perf_counter() - start)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--image-size", type=int, default=64,
                        help="rows and columns of the images (224 is ImageNet's)")
    parser.add_argument("--steps", type=int, default=5, help="timed steps of each kind")
    parser.add_argument("--classes", type=int, default=10)
    args = parser.parse_args(argv)

    tf.keras.utils.set_random_seed(0)
    model = tf.keras.applications.ResNet50(
        weights=None, input_shape=(args.image_size, args.image_size, 3), classes=args.classes,
        classifier_activation=None)
    print(f"{model.name}: {len(model.layers)} layers, {model.count_params():,} parameters, "
          f"{args.image_size}x{args.image_size} images, batch {args.batch_size}")
    images, labels = synthetic_data(args.batch_size, args.image_size, args.classes)
    train_step, predict_step = make_steps(model)

    losses = []
    start = time.perf_counter()
    for step in range(args.steps + 1):
        losses.append(float(train_step(images, labels)))
        if step == 0:
            start = time.perf_counter()  # the first step traces
        print(f"step {step}: loss {losses[-1]:.4f}")
    train_rate = args.batch_size * args.steps / (time.perf_counter() - start)
    predict_rate = images_per_second(predict_step, (images,), args.batch_size, args.steps)
    print(f"train:     {train_rate:8.1f} images/s")
    print(f"inference: {predict_rate:8.1f} images/s")
    return {"losses": losses, "train_images_per_s": train_rate,
            "inference_images_per_s": predict_rate}


if __name__ == "__main__":
    main()
