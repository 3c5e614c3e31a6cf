"""examples/mnist.py in its CI-sized form, on scikit-learn's digits."""
import numpy as np

from tests.examples import load


def test_mnist_custom_loop_learns_the_digits(capsys):
    program = load("examples/mnist.py")
    history = program.main(["--data", "digits", "--epochs", "2", "--log-interval", "10"])
    out = capsys.readouterr().out
    assert out.startswith("scikit-learn digits: 1347 training and 450 test images of 8x8")
    assert "Train time for epoch #2 (step 44)" in out and "Step #11\tLoss:" in out
    assert "Test set: Average loss:" in out
    assert history[1]["train_loss"] < history[0]["train_loss"]
    assert history[-1]["test_accuracy"] > 0.3  # chance is 0.1


def test_mnist_model_takes_mnist_sized_images():
    program = load("examples/mnist.py")
    model = program.MNISTModel()
    assert model(np.zeros((2, 28, 28, 1), "float32")).shape == (2, 10)
    # two convolutions and two dense layers, each with a kernel and a bias
    assert len(model.trainable_variables) == 8
    assert model.count_params() == 32 * 26 + 64 * 801 + 256 * (7 * 7 * 64 + 1) + 10 * 257
