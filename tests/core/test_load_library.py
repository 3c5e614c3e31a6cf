"""tf.load_op_library / tf.load_library: TF's errors for what its loader cannot open, and
an UnimplementedError for a real library (eagerflow runs no compiled TF kernels)."""
import glob
import os

import numpy as np
import pytest

import eagerflow as tf


def _shared_library():
    folder = os.path.dirname(np.__file__)
    return sorted(glob.glob(os.path.join(folder, "**", "*.so"), recursive=True))[0]


@pytest.mark.parametrize("load", [tf.load_op_library, tf.load_library])
def test_not_a_library(load, tmp_path):
    text = tmp_path / "ops.py"
    text.write_text("print('not a library')\n")
    with pytest.raises(tf.errors.NotFoundError, match=f"^{text}: invalid ELF header$"):
        load(str(text))


def test_load_op_library_missing_file_and_folder(tmp_path):
    missing = tmp_path / "x.so"
    with pytest.raises(tf.errors.NotFoundError,
                       match=f"^{missing}: cannot open shared object file: No such file or "
                             f"directory$") as info:
        tf.load_op_library(str(missing))
    assert info.value.error_code == 5
    with pytest.raises(tf.errors.NotFoundError,
                       match=f"^{tmp_path}: cannot read file data: Is a directory$"):
        tf.load_op_library(str(tmp_path))


def test_load_library_missing_and_empty_folder(tmp_path):
    missing = str(tmp_path / "x.so")
    with pytest.raises(FileNotFoundError) as info:
        tf.load_library(missing)
    assert str(info.value) == ("[Errno 2] The file or folder to load kernel libraries from "
                               f"does not exist.: '{missing}'")
    assert tf.load_library(str(tmp_path)) is None  # (no .so files: nothing to load)


@pytest.mark.parametrize("load", [tf.load_op_library, tf.load_library])
def test_real_library_is_unimplemented(load):
    with pytest.raises(tf.errors.UnimplementedError, match="cannot load TensorFlow kernel "
                                                           "libraries"):
        load(_shared_library())
