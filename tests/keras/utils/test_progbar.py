"""Progbar prints what tf_keras 2.21's Progbar prints.

Every expected string was captured from tf_keras with the same calls at the
same (injected) times.
"""
import io
import sys

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras.utils import Progbar
from tests.internals import progbar as progbar_lib


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(Progbar, "_time", staticmethod(clock))
    return clock


def play(clock, bar, *steps):
    """Runs ``(time, method, *args)`` steps, with an optional kwargs dict last."""
    for t, method, *args in steps:
        kwargs = args.pop() if args and isinstance(args[-1], dict) else {}
        clock.now = t
        getattr(bar, method)(*args, **kwargs)


METRICS = [
    (0.5, "update", 1, [("loss", 0.5), ("accuracy", 0.25)]),
    (1.0, "update", 2, [("loss", 0.3), ("accuracy", 0.75)]),
    (1.5, "update", 3, [("loss", 0.1), ("accuracy", 1.0)]),
]


def test_redraws_in_place_and_averages_values(clock, capsys):
    play(clock, Progbar(3), *METRICS)
    assert capsys.readouterr().out == (
        "\r1/3 [=========>....................] - ETA: 1s - loss: 0.5000 - accuracy: 0.2500"
        + "\b" * 80
        + "\r2/3 [===================>..........] - ETA: 0s - loss: 0.4000 - accuracy: 0.5000"
        + "\b" * 80
        + "\r3/3 [==============================] - 2s 500ms/step"
        " - loss: 0.3000 - accuracy: 0.6667\n")


def test_without_dynamic_display_each_redraw_starts_a_line(clock, capsys):
    bar = Progbar(3)
    bar._dynamic_display = False
    play(clock, bar, *METRICS)
    assert capsys.readouterr().out == (
        "\n1/3 [=========>....................] - ETA: 1s - loss: 0.5000 - accuracy: 0.2500"
        "\n2/3 [===================>..........] - ETA: 0s - loss: 0.4000 - accuracy: 0.5000"
        "\n3/3 [==============================] - 2s 500ms/step"
        " - loss: 0.3000 - accuracy: 0.6667\n")


def test_verbose_2_prints_one_line_at_the_end(clock, capsys):
    play(clock, Progbar(3, verbose=2), *METRICS)
    assert capsys.readouterr().out == (
        "3/3 - 2s - loss: 0.3000 - accuracy: 0.6667 - 2s/epoch - 500ms/step\n")


def test_verbose_2_each_finalize_reports_time_since_the_previous_one(clock, capsys):
    play(clock, Progbar(4, verbose=2),
         (0.1, "update", 2, [("loss", 1.0)]),
         (0.2, "update", 4, [("loss", 1.0)], {"finalize": True}),
         (5.0, "update", 4, {"finalize": True}))
    assert capsys.readouterr().out == (
        "4/4 - 0s - loss: 1.0000 - 200ms/epoch - 50ms/step\n"
        "4/4 - 5s - loss: 1.0000 - 5s/epoch - 1s/step\n")


def test_verbose_0_prints_nothing(clock, capsys):
    play(clock, Progbar(2, verbose=0), (3.0, "update", 1), (7.0, "update", 2))
    assert capsys.readouterr().out == ""


def test_fit_epoch_with_stateful_metrics(clock, capsys):
    # What ProgbarLogger does: one update per batch, then a final one.
    bar = Progbar(32, stateful_metrics={"loss", "accuracy"})
    logs = [("loss", 0.3), ("accuracy", 0.9)]
    play(clock, bar, *[(0.01 * step, "update", step, logs, {"finalize": False})
                       for step in range(1, 33)],
         (0.33, "update", 32, logs, {"finalize": True}))
    redraws = [" 1/32 [..............................]", " 7/32 [=====>........................]",
               "13/32 [===========>..................]", "19/32 [================>.............]",
               "25/32 [======================>.......]", "31/32 [============================>.]"]
    expected = "".join(f"\r{bar_text} - ETA: 0s - loss: 0.3000 - accuracy: 0.9000" + "\b" * 82
                       for bar_text in redraws)
    assert capsys.readouterr().out == expected + (
        "\r32/32 [==============================] - 0s 10ms/step"
        " - loss: 0.3000 - accuracy: 0.9000\n")


def test_eta_in_hours_then_padding_over_a_longer_line(clock, capsys):
    play(clock, Progbar(10000), (100.0, "update", 1), (200.0, "update", 2),
         (300.0, "update", 9999), (400.0, "update", 10000))
    assert capsys.readouterr().out == (
        "\r    1/10000 [..............................] - ETA: 277:45:00"
        + "\b" * 61
        + "\r    2/10000 [..............................] - ETA: 277:43:20"
        + "\b" * 61
        + "\r 9999/10000 [============================>.] - ETA: 0s       "
        + "\b" * 54
        + "\r10000/10000 [==============================] - 400s 30ms/step\n")


def test_eta_in_minutes(clock, capsys):
    play(clock, Progbar(100), (2.0, "update", 1), (3.5, "update", 2))
    assert capsys.readouterr().out == (
        "\r  1/100 [..............................] - ETA: 3:18"
        + "\b" * 52
        + "\r  2/100 [..............................] - ETA: 2:27")


def test_eta_in_hours_with_a_narrow_bar_and_e_notation(clock, capsys):
    play(clock, Progbar(60000, width=20), (0.5, "update", 7, [("x", 1e-5)]),
         (3.0, "update", 60000, [("x", 3e-3)]))
    assert capsys.readouterr().out == (
        "\r    7/60000 [....................] - ETA: 1:11:25 - x: 1.0000e-05"
        + "\b" * 65
        + "\r60000/60000 [====================] - 3s 50us/step - x: 0.0030    \n")


@pytest.mark.parametrize("times, expected", [
    ((0.0001, 0.1), "\r   1/1000 [..............................] - ETA: 0s" + "\b" * 52
     + "\r1000/1000 [==============================] - 0s 100us/step\n"),
    ((3.0, 7.0), "\r1/2 [==============>...............] - ETA: 3s" + "\b" * 46
     + "\r2/2 [==============================] - 7s 4s/step\n"),
])
def test_step_time_units(clock, capsys, times, expected):
    target = 1000 if times[0] < 1 else 2
    play(clock, Progbar(target), (times[0], "update", 1), (times[1], "update", target))
    assert capsys.readouterr().out == expected


def test_zero_duration_prints_seconds(clock, capsys):
    play(clock, Progbar(1), (0.0, "update", 1))
    assert capsys.readouterr().out == "\r1/1 [==============================] - 0s 0s/step\n"


def test_unknown_target(clock, capsys):
    play(clock, Progbar(None), (0.5, "update", 1, [("loss", 2.0)]),
         (1.0, "update", 5, [("loss", 1.0)]),
         (2.0, "update", 12, [("loss", 1.0)], {"finalize": True}))
    assert capsys.readouterr().out == (
        "\r      1/Unknown - 0s 500ms/step - loss: 2.0000"
        + "\b" * 46
        + "\r      5/Unknown - 1s 125ms/step - loss: 1.2000"
        + "\b" * 46
        + "\r     12/Unknown - 2s 136ms/step - loss: 1.0833\n")


STATEFUL = [(0.1, "update", 1, [("loss", 0.0001), ("acc", 0.5)]),
            (0.2, "update", 2, [("loss", -0.5), ("acc", 0.7)])]


def test_stateful_metrics_shown_as_given_and_small_values_in_e_notation(clock, capsys):
    play(clock, Progbar(2, stateful_metrics=["acc"]), *STATEFUL)
    assert capsys.readouterr().out == (
        "\r1/2 [==============>...............] - ETA: 0s - loss: 1.0000e-04 - acc: 0.5000"
        + "\b" * 79
        + "\r2/2 [==============================] - 0s 100ms/step - loss: -0.2500 - acc: 0.7000\n")


def test_verbose_2_prints_negative_values_in_e_notation(clock, capsys):
    play(clock, Progbar(2, verbose=2, stateful_metrics=["acc"]), *STATEFUL)
    assert capsys.readouterr().out == (
        "2/2 - 0s - loss: -2.4995e-01 - acc: 0.7000 - 200ms/epoch - 100ms/step\n")


def test_redraws_closer_than_interval_are_skipped(clock, capsys):
    play(clock, Progbar(5), (0.01, "update", 1), (0.02, "update", 2), (0.2, "update", 3),
         (0.21, "update", 5))
    assert capsys.readouterr().out == (
        "\r1/5 [=====>........................] - ETA: 0s"
        + "\b" * 46
        + "\r3/5 [=================>............] - ETA: 0s"
        + "\b" * 46
        + "\r5/5 [==============================] - 0s 50ms/step\n")


def test_values_are_kept_when_later_updates_omit_them(clock, capsys):
    play(clock, Progbar(3), (0.5, "update", 1, [("a_very_long_metric_name", 123456.0)]),
         (61.0, "update", 2), (100, "update", 3))
    assert capsys.readouterr().out == (
        "\r1/3 [=========>....................] - ETA: 1s - a_very_long_metric_name: 123456.0000"
        + "\b" * 85
        + "\r2/3 [===================>..........] - ETA: 1:00"
        " - a_very_long_metric_name: 123456.0000"
        + "\b" * 87
        + "\r3/3 [==============================] - 100s 50s/step - a_very_long_metric_name: "
        "123456.0000\n")


def test_add_weights_values_by_steps_and_uses_unit_name(clock, capsys):
    play(clock, Progbar(6, width=10, unit_name="sample"), (0.1, "add", 2, [("loss", 1.0)]),
         (0.2, "add", 2, [("loss", 2.0)]), (0.3, "add", 2, [("loss", 3.0)]))
    assert capsys.readouterr().out == (
        "\r2/6 [==>.......] - ETA: 0s - loss: 1.0000"
        + "\b" * 41
        + "\r4/6 [=====>....] - ETA: 0s - loss: 1.5000"
        + "\b" * 41
        + "\r6/6 [==========] - 0s 50ms/sample - loss: 2.0000\n")


def test_finalize_before_target(clock, capsys):
    play(clock, Progbar(10), (1.0, "update", 3, [("loss", 1.0)], {"finalize": True}))
    assert capsys.readouterr().out == (
        "\r 3/10 [========>.....................] - 1s 333ms/step - loss: 1.0000\n")


def test_tensor_and_numpy_values(clock, capsys):
    play(clock, Progbar(2), (0.5, "update", 1, [("loss", tf.constant(0.5)), ("m", np.float32(2))]),
         (1.0, "update", 2, [("loss", tf.constant(0.25)), ("m", np.array(4.0))]))
    assert capsys.readouterr().out.endswith(" - 1s 500ms/step - loss: 0.3750 - m: 3.0000\n")


def test_stateful_metrics_can_be_extended():
    bar = Progbar(2, stateful_metrics=["a"])
    bar._update_stateful_metrics({"b"})
    assert bar.stateful_metrics == {"a", "b"}


class _Stream(io.StringIO):
    def __init__(self, tty):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


@pytest.mark.parametrize("tty, posix, expected", [
    (False, False, False), (True, False, True), (False, True, True)])
def test_dynamic_display_follows_keras_rule(monkeypatch, tty, posix, expected):
    monkeypatch.setattr(sys, "stdout", _Stream(tty))
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    monkeypatch.delenv("PYCHARM_HOSTED", raising=False)
    if not posix:
        monkeypatch.delitem(sys.modules, "posix", raising=False)
    assert progbar_lib._redraws_in_place() is expected
    assert Progbar(3)._dynamic_display is expected
