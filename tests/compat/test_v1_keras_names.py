"""Keras layer names in TF 1 graphs against TF's recorded results
(`data/make_v1_keras_names_data.py`)."""
import json
import os

import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_keras_names_programs import PROGRAMS

with open(os.path.join(os.path.dirname(__file__), "data", "v1_keras_names.json")) as _f:
    RECORDED = json.load(_f)


@pytest.fixture(autouse=True)
def fresh_names():
    tf.keras.backend.clear_session()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_give_tfs_names(name):
    assert PROGRAMS[name](tf1, tf.keras) == RECORDED[name]


def test_the_global_graph_of_a_disabled_eager_program_counts_apart():
    tf1.disable_eager_execution()
    assert tf.keras.layers.Dense(1).name == "dense"
    tf1.reset_default_graph()
    assert tf.keras.layers.Dense(1).name == "dense"
