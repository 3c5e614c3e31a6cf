"""examples/resnet50.py and bench/resnet50.py in their CI-sized forms."""
from tests.examples import load


def test_resnet50_training_steps_lower_the_loss_and_inference_runs(capsys):
    program = load("examples/resnet50.py")
    result = program.main(["--image-size", "32", "--batch-size", "4", "--steps", "3"])
    out = capsys.readouterr().out
    assert "resnet50: 177 layers, 23,608,202 parameters" in out
    losses = result["losses"]
    assert len(losses) == 4 and min(losses[1:]) < losses[0]
    assert "images/s" in out and result["inference_images_per_s"] > 0


def test_resnet50_benchmark_reports_images_per_second(capsys, monkeypatch):
    monkeypatch.delenv("EF_BENCH_TF_PYTHON", raising=False)
    bench = load("bench/resnet50.py")
    monkeypatch.setattr(bench, "tensorflow_results", lambda args: None)  # eagerflow alone
    assert bench.main(["--image-size", "32", "--batch-size", "2", "--reps", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ResNet-50, 32x32 images, batch 2")
    assert out[1] == "train:" and out[2].split()[0] == "eagerflow" and \
        out[2].endswith("images/s")
