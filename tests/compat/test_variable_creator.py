"""``tf.variable_creator_scope`` against TF's recorded results
(`data/make_variable_creator_data.py`)."""
import json
import os

import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.variable_creator_programs import PROGRAMS

with open(os.path.join(os.path.dirname(__file__), "data", "variable_creator.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_give_tfs_results(name):
    assert PROGRAMS[name](tf) == RECORDED[name]


def test_a_creator_sees_variables_made_while_a_function_traces():
    names = []

    def record(next_creator, **kwargs):
        names.append(kwargs["name"])
        return next_creator(**kwargs)

    holder = []

    @tf.function
    def f():
        if not holder:
            holder.append(tf.Variable(2.0, name="in_function"))
        return holder[0] * 3

    with tf1.variable_creator_scope(record):
        assert float(f()) == 6.0
    assert names == ["in_function"]


def test_the_scope_is_left_when_the_block_raises():
    with pytest.raises(KeyError):
        with tf.variable_creator_scope(lambda next_creator, **kwargs: 1):
            raise KeyError()
    assert isinstance(tf.Variable(1.0), tf.Variable)
