"""RaggedTensor and tf.ragged through the public API: factories, conversions, dispatch of
TF's functions, `function` arguments and gradients."""
import sys

import numpy as np
import pytest

import eagerflow as tf


def test_factories_build_the_same_rows():
    values = [3, 1, 4, 1, 5]
    want = [[3, 1], [], [4, 1, 5]]
    assert tf.RaggedTensor.from_row_splits(values, [0, 2, 2, 5]).to_list() == want
    assert tf.RaggedTensor.from_row_lengths(values, [2, 0, 3]).to_list() == want
    assert tf.RaggedTensor.from_value_rowids(values, [0, 0, 2, 2, 2]).to_list() == want
    assert tf.RaggedTensor.from_row_starts(values, [0, 2, 2]).to_list() == want
    assert tf.RaggedTensor.from_row_limits(values, [2, 2, 5]).to_list() == want
    assert tf.RaggedTensor.from_value_rowids(values, [0, 0, 2, 2, 2], nrows=4).to_list() == \
        want + [[]]


def test_invalid_splits_raise_tfs_error():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1, 3])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2])
    with pytest.raises(ValueError, match="private"):
        tf.RaggedTensor([1], [0, 1])


def test_to_tensor_default_value_and_shape():
    rt = tf.ragged.constant([[1, 2, 3], [4]])
    assert rt.to_tensor(default_value=9).numpy().tolist() == [[1, 2, 3], [4, 9, 9]]
    assert rt.to_tensor(shape=[3, 2]).numpy().tolist() == [[1, 2], [4, 0], [0, 0]]
    assert rt.to_tensor(shape=[None, 4]).shape == (2, 4)
    empty = tf.ragged.constant([[], []], dtype=tf.float32)
    assert empty.to_tensor().shape == (2, 0)


def test_ragged_rank_two_components_and_printing():
    rt = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert rt.ragged_rank == 2 and rt.shape.as_list() == [3, None, None]
    assert [s.numpy().tolist() for s in rt.nested_row_splits] == [[0, 2, 2, 3], [0, 2, 3, 6]]
    assert rt.flat_values.numpy().tolist() == [1, 2, 3, 4, 5, 6]
    assert str(rt) == "<tf.RaggedTensor [[[1, 2], [3]], [], [[4, 5, 6]]]>"
    assert rt.merge_dims(1, 2).to_list() == [[1, 2, 3], [], [4, 5, 6]]
    assert rt.bounding_shape().numpy().tolist() == [3, 2, 3]


def test_sparse_round_trip():
    rt = tf.ragged.constant([[1, 2], [], [3]])
    st = rt.to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0], [0, 1], [2, 0]]
    assert tf.RaggedTensor.from_sparse(st).to_list() == rt.to_list()


def test_elementwise_functions_and_operators_keep_rows():
    rt = tf.ragged.constant([[1.0, 4.0], [9.0]])
    assert tf.sqrt(rt).to_list() == [[1.0, 2.0], [3.0]]
    assert (tf.constant([[1.0], [2.0]]) * rt).to_list() == [[1.0, 4.0], [18.0]]
    assert (2.0 - rt).to_list() == [[1.0, -2.0], [-7.0]]
    assert tf.cast(rt, tf.int32).dtype == tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError):
        rt + tf.ragged.constant([[1.0], [2.0, 3.0]])


def test_an_op_without_a_ragged_version_raises_tfs_errors():
    # (TF's messages: eagerly its conversion asks for len(); in a graph it names the value)
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    for op in (tf.sort, tf.argsort, tf.transpose, tf.convert_to_tensor):
        with pytest.raises(ValueError) as info:
            op(rt)
        assert str(info.value) == "TypeError: object of type 'RaggedTensor' has no len()\n"
    with pytest.raises(ValueError, match="'DynamicRaggedShape' has no len"):
        tf.add(tf.shape(rt), 1)
    sort = tf.function(tf.sort, input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    with pytest.raises(TypeError, match="Failed to convert elements of tf.RaggedTensor"):
        sort(rt)


def test_constant_of_a_ragged_tensor_raises_tfs_errors():
    rt = tf.ragged.constant([[1, 2], [3]])
    for kwargs in ({}, {"dtype": tf.float32}, {"shape": [2, 2]}):
        with pytest.raises(ValueError) as info:
            tf.constant(rt, **kwargs)
        assert str(info.value) == "TypeError: object of type 'RaggedTensor' has no len()\n"
    constant = tf.function(tf.constant,
                           input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    with pytest.raises(TypeError) as info:
        constant(rt)
    assert str(info.value).startswith('Failed to convert elements of tf.RaggedTensor(values='
                                      'Tensor("')
    assert "Consider casting elements to a supported type." in str(info.value)
    assert tf.constant(tf.Variable([1.0, 2.0]), dtype=tf.float64).dtype == tf.float64


def test_gather_nd_of_ragged_params_and_indices():
    """Values recorded from TF 2.21."""
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    r2 = tf.ragged.constant([[[1], [2, 3]], [], [[4, 5, 6]]])
    dense = tf.gather_nd(rt, [[0, 1], [2, 0]])
    assert isinstance(dense, tf.Tensor) and dense.numpy().tolist() == [1, 5]
    assert tf.gather_nd(rt, [[0], [2]]).to_list() == [[3, 1, 2], [5, 4]]
    assert tf.gather_nd(rt, [0, 1]).numpy() == 1
    assert tf.gather_nd(rt, [2]).to_list() == [[5, 4]]
    assert tf.gather_nd(rt, [[[0]], [[2]]]).to_list() == [[[3, 1, 2]], [[5, 4]]]
    assert tf.gather_nd(rt, [[]]).to_list() == [[[3, 1, 2], [], [5, 4]]]
    assert tf.gather_nd(rt, tf.zeros([0, 2], tf.int32)).shape == [0]
    assert tf.gather_nd(r2, [[0, 1], [2, 0]]).to_list() == [[2, 3], [4, 5, 6]]
    assert tf.gather_nd(r2, [[0, 1, 1], [2, 0, 2]]).numpy().tolist() == [3, 6]
    assert tf.gather_nd(r2, tf.zeros([2, 0], tf.int64)).to_list() == [r2.to_list()] * 2
    indices = tf.ragged.constant([[[0, 1]], [[2, 0], [0, 0]]], ragged_rank=1)
    assert tf.gather_nd(rt, indices).to_list() == [[1], [5, 3]]
    indices = tf.ragged.constant([[[0, 1]], [[1, 0], [0, 0]]], ragged_rank=1)
    assert tf.gather_nd(tf.constant([[1, 2], [3, 4]]), indices).to_list() == [[2], [3, 1]]
    by32 = tf.ragged.constant([[3, 1, 2], [], [5, 4]], row_splits_dtype=tf.int32)
    assert tf.gather_nd(by32, tf.constant([[0, 1]], tf.int64)).numpy().tolist() == [1]
    traced = tf.function(lambda params, indices: tf.gather_nd(params, indices))
    assert traced(rt, tf.constant([[0, 1], [2, 1]])).numpy().tolist() == [1, 4]
    assert traced(rt, tf.constant([[0], [2]])).to_list() == [[3, 1, 2], [5, 4]]


def test_gather_nd_of_ragged_errors_are_tfs():
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    with pytest.raises(ValueError, match="batch_dims != 0 is not supported"):
        tf.gather_nd(rt, [[0], [2]], batch_dims=1)
    with pytest.raises(ValueError, match="innermost dimension of indices may not be ragged"):
        tf.gather_nd(rt, tf.ragged.constant([[0, 1], [2]]))
    with pytest.raises(ValueError, match="indices.rank must be at least 1"):
        tf.gather_nd(rt, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 5 is not in"):
        tf.gather_nd(rt, [[0, 5]])  # (the flat position: TF checks no row's length)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in"):
        tf.gather_nd(rt, [[-1]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be <= params rank"):
        tf.gather_nd(rt, [[0, 1, 2]])
    unknown = tf.function(lambda params, indices: tf.gather_nd(params, indices),
                          input_signature=[tf.RaggedTensorSpec([None, None], tf.int32),
                                           tf.TensorSpec([None, None], tf.int32)])
    with pytest.raises(ValueError, match=r"indices.shape\[-1\] must be statically known"):
        unknown.get_concrete_function()


def test_gather_of_matrix_indices_gives_ragged_inner_dimensions():
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    out = tf.gather(rt, [[0], [2]])
    assert out.to_list() == [[[3, 1, 2]], [[5, 4]]]
    assert out.ragged_rank == 2 and out.row_splits.numpy().tolist() == [0, 1, 2]


def test_reshape_of_ragged_reshapes_its_flat_values():
    """As TF: a dense result; to a `tf.shape` of a ragged tensor, a ragged one."""
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    r2 = tf.ragged.constant([[[1], [2, 3]], [], [[4, 5, 6]]])
    assert tf.reshape(rt, [-1]).numpy().tolist() == [3, 1, 2, 5, 4]
    assert tf.reshape(rt, tf.constant([5, 1])).shape == [5, 1]
    assert tf.reshape(r2, [3, 2]).numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    uniform = tf.ragged.constant([[[1, 2], [3, 4]], [], [[5, 6]]], ragged_rank=1)
    assert tf.reshape(uniform, [-1, 2]).numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    traced = tf.function(lambda x: tf.reshape(x, [-1, 1]),
                         input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    assert traced.get_concrete_function().structured_outputs.shape.as_list() == [None, 1]
    assert traced(rt).numpy().ravel().tolist() == [3, 1, 2, 5, 4]
    with pytest.raises(tf.errors.InvalidArgumentError, match="5 values, but the requested "
                                                             "shape has 6"):
        tf.reshape(rt, [6])
    shaped = tf.reshape(tf.Variable([1, 2, 3, 4, 5]), tf.shape(rt))
    assert shaped.to_list() == [[1, 2, 3], [], [4, 5]] and shaped.row_splits.dtype == tf.int32
    assert tf.reshape(tf.constant([[1, 2, 3], [4, 5, 6]]), tf.shape(r2)).to_list() == \
        r2.to_list()
    assert tf.reshape(tf.range(6), tf.shape(uniform)).to_list() == [[[0, 1], [2, 3]], [],
                                                                    [[4, 5]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="6 values, but the requested "
                                                             "shape has 5"):
        tf.reshape(r2, tf.shape(rt))
    with pytest.raises(ValueError, match="'RaggedTensor' has no len"):
        tf.reshape([1, 2, 3], tf.ragged.constant([[3]]))


def test_zeros_and_ones_of_a_ragged_shape():
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    zeros = tf.zeros(tf.shape(rt))
    assert zeros.to_list() == [[0., 0., 0.], [], [0., 0.]] and zeros.dtype == tf.float32
    ones = tf.ones(tf.shape(rt, out_type=tf.int64), tf.int32)
    assert ones.to_list() == [[1, 1, 1], [], [1, 1]] and ones.row_splits.dtype == tf.int64
    traced = tf.function(lambda x: tf.zeros(tf.shape(x)))
    assert traced(rt).to_list() == zeros.to_list()


def test_fill_of_a_ragged_shape():
    rt = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    filled = tf.fill(tf.shape(rt), 7)
    assert filled.to_list() == [[[7, 7], [7]], [], [[7, 7, 7]]] and filled.dtype == tf.int32
    traced = tf.function(lambda x: tf.fill(tf.shape(x), 2.0))
    assert traced(rt).to_list() == [[[2., 2.], [2.]], [], [[2., 2., 2.]]]
    with pytest.raises(ValueError, match="RaggedTensor"):
        tf.fill(rt, 3)


def test_dynamic_ragged_shape_indexing_and_slicing():
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    uniform = tf.shape(tf.ragged.constant([[[1, 2]], [], [[3, 4], [5, 6]]], ragged_rank=1))
    assert uniform[-1].numpy() == 2 and uniform[0].numpy() == 3
    assert repr(tf.shape(rt)[:1]) == "<DynamicRaggedShape lengths=[3] num_row_partitions=0>"
    assert repr(uniform[0:2]) == \
        "<DynamicRaggedShape lengths=[3, (1, 0, 2)] num_row_partitions=1>"
    assert repr(tf.shape(rt)[:]) == repr(tf.shape(rt))
    with pytest.raises(ValueError, match="All relevant dimensions must be uniform"):
        tf.shape(rt)[1:]
    with pytest.raises(IndexError, match="Cannot stride through a shape"):
        uniform[::2]


def test_reductions_over_rows_and_columns():
    rt = tf.ragged.constant([[1, 2], [], [3]])
    assert tf.reduce_sum(rt, axis=1).numpy().tolist() == [3, 0, 3]
    assert tf.reduce_sum(rt, axis=0).numpy().tolist() == [4, 2]
    mean = tf.reduce_mean(rt, axis=1)
    assert mean.dtype == tf.float64 and np.isnan(mean.numpy()[1])
    assert tf.reduce_max(rt, axis=-1).numpy().tolist() == [2, np.iinfo(np.int32).min, 3]
    assert int(tf.reduce_sum(rt)) == 6


def test_concat_gather_where_and_indexing():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert tf.concat([rt, rt], axis=1).to_list() == [[1, 2, 1, 2], [3, 3]]
    assert tf.concat([rt, [[4, 5, 6]]], axis=0).to_list() == [[1, 2], [3], [4, 5, 6]]
    assert tf.gather(rt, [1, 0, 1]).to_list() == [[3], [1, 2], [3]]
    assert tf.where(rt > 1, rt, -rt).to_list() == [[-1, 2], [3]]
    assert rt[0].numpy().tolist() == [1, 2]
    assert rt[:, :1].to_list() == [[1], [3]]
    with pytest.raises(ValueError, match="inner ragged"):
        rt[:, 0]
    assert rt[:, ::2].to_list() == [[1], [3]]
    assert rt[tf.newaxis].to_list() == [[[1, 2], [3]]]
    with pytest.raises(IndexError):
        rt[2]
    assert rt[-1:].to_list() == [[3]]


def test_ragged_module_functions():
    assert tf.ragged.range([3, 0, 2]).to_list() == [[0, 1, 2], [], [0, 1]]
    assert tf.ragged.range([5.0], [2.0], -1.5).to_list() == [[5.0, 3.5]]
    mask = tf.ragged.boolean_mask([[1, 2], [3, 4]], [[True, False], [True, True]])
    assert mask.to_list() == [[1], [3, 4]]
    stacked = tf.ragged.stack([tf.ragged.constant([[1]]), tf.ragged.constant([[2, 3], []])])
    assert stacked.to_list() == [[[1]], [[2, 3], []]]
    doubled = tf.ragged.map_flat_values(tf.multiply, tf.ragged.constant([[1], [2, 3]]), 2)
    assert doubled.to_list() == [[2], [4, 6]]


def test_unicode_transcode_and_encodings():
    assert tf.strings.unicode_transcode(["a\u00f1b"], "UTF-8", "UTF-16-BE").numpy().tolist() == \
        [b"\x00a\x00\xf1\x00b"]
    assert tf.strings.unicode_transcode([[b"a\xffb"]], "UTF-8", "UTF-8",
                                        replacement_char=63).numpy().tolist() == [[b"a?b"]]
    assert tf.strings.unicode_transcode(tf.ragged.constant([[b"x\x01"], []]), "UTF-8", "UTF-8",
                                        errors="ignore", replace_control_characters=True
                                        ).to_list() == [[b"x"], []]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid formatting"):
        tf.strings.unicode_transcode(b"a\xff", "UTF-8", "UTF-8", errors="strict")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="attr 'output_encoding' of \"latin1\""):
        tf.strings.unicode_transcode("a", "UTF-8", "latin1")
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'output_encoding'"):
        tf.strings.unicode_encode([104], "latin1")
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'errors' of \"bad\""):
        tf.strings.unicode_decode("a", "UTF-8", errors="bad")
    # input encodings other than UTF ones, as ICU reads them in TF
    assert tf.strings.unicode_decode([b"ab\xe9"], "ISO-8859-1").to_list() == [[97, 98, 233]]
    assert tf.strings.unicode_transcode(b"\xe9", "latin1", "UTF-8").numpy() == b"\xc3\xa9"
    chars, starts = tf.strings.unicode_split_with_offsets(["a\u00f1b", "xy"], "UTF-8")
    assert chars.to_list() == [[b"a", b"\xc3\xb1", b"b"], [b"x", b"y"]]
    assert starts.to_list() == [[0, 1, 3], [0, 1]]
    chars, starts = tf.strings.unicode_split_with_offsets(b"a\xffb", "UTF-8", replacement_char=63)
    assert chars.numpy().tolist() == [b"a", b"?", b"b"] and starts.numpy().tolist() == [0, 1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'output_encoding'"):
        tf.strings.unicode_split([b"\xe9"], "ISO-8859-1")
    # a control character is dropped when errors are ignored, else replaced
    assert tf.strings.unicode_decode([b"x\x01y"], "UTF-8", errors="ignore",
                                     replace_control_characters=True).to_list() == [[120, 121]]
    assert tf.strings.unicode_decode([b"x\x01y"], "UTF-8", errors="strict",
                                     replace_control_characters=True).to_list() == \
        [[120, 65533, 121]]
    # UTF-16 cut short after a high surrogate: the surrogate and the last byte are one
    # replacement character; a lone low surrogate and the last byte are two
    points, starts = tf.strings.unicode_decode_with_offsets(
        [b"\x00h\xd8\x3d\xde", b"\xde\x00\x00", b"\xd8\x3d\x00a\x00"], "UTF-16-BE")
    assert points.to_list() == [[104, 65533], [65533, 65533], [65533, 97, 65533]]
    assert starts.to_list() == [[0, 2], [0, 2], [0, 2, 4]]
    assert tf.strings.unicode_transcode([b"\xd8\x3d\x00"], "UTF-16-BE", "UTF-8").numpy().tolist() \
        == [b"\xef\xbf\xbd"]
    # a replacement character outside Unicode is an error; a surrogate one is U+FFFD in UTF-8
    # and written as it is in UTF-16 and UTF-32
    for call in (lambda c: tf.strings.unicode_decode([b"ab"], "UTF-8", replacement_char=c),
                 lambda c: tf.strings.unicode_transcode([b"a"], "UTF-8", "UTF-8",
                                                        replacement_char=c),
                 lambda c: tf.strings.unicode_encode([97], "UTF-8", replacement_char=c)):
        for code in (-1, 0x110000):
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="replacement_char out of unicode codepoint range"):
                call(code)
    bad = tf.ragged.constant([[97, -1]])
    assert [tf.strings.unicode_encode(bad, encoding, replacement_char=0xD800).numpy().tolist()
            for encoding in ("UTF-8", "UTF-16-BE", "UTF-32-BE")] == [
        [b"a\xef\xbf\xbd"], [b"\x00a\xd8\x00"], [b"\x00\x00\x00a\x00\x00\xd8\x00"]]
    assert tf.strings.unicode_transcode([b"a\xffb"], "UTF-8", "UTF-8",
                                        replacement_char=0xD800).numpy().tolist() == \
        [b"a\xef\xbf\xbdb"]
    # transcoding strictly, a control character to replace is invalid input
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid formatting"):
        tf.strings.unicode_transcode([b"a\x01b"], "UTF-8", "UTF-16-BE", errors="strict",
                                     replace_control_characters=True)


def test_strings_functions_return_ragged_rows():
    assert tf.strings.split(["a b", "c"]).to_list() == [[b"a", b"b"], [b"c"]]
    assert tf.strings.split([["a b"], ["c"]]).to_list() == [[[b"a", b"b"]], [[b"c"]]]
    assert tf.strings.unicode_decode(["h\u00e9"], "UTF-8").to_list() == [[104, 233]]
    assert tf.strings.unicode_split(["h\u00e9"], "UTF-8").to_list() == [[b"h", b"\xc3\xa9"]]
    assert tf.strings.bytes_split(["ab", ""]).to_list() == [[b"a", b"b"], []]
    # an invalid or cut-short sequence is one replacement character, as in TF
    assert tf.strings.unicode_decode([b"a\xffb", b"\xe2\x82"], "UTF-8").to_list() == \
        [[97, 65533, 98], [65533]]
    assert tf.strings.unicode_split([b"\xe2\x82"], "UTF-8").to_list() == [[b"\xef\xbf\xbd"]]
    encoded = tf.strings.unicode_encode(tf.ragged.constant([[104, 233], []]), "UTF-8")
    assert encoded.numpy().tolist() == [b"h\xc3\xa9", b""]
    assert tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), 2).to_list() == \
        [[b"a b", b"b c"], []]
    joined = tf.ragged.constant([["hello", "world"], [], ["x"]])
    assert tf.strings.reduce_join(joined, axis=-1, separator=" ").numpy().tolist() == \
        [b"hello world", b"", b"x"]
    assert tf.strings.reduce_join(joined, axis=0, separator="+").numpy().tolist() == \
        [b"hello+x", b"world"]
    words = tf.ragged.constant([["So", "long"]])
    assert tf.strings.substr(words, 0, 1).to_list() == [[b"S", b"l"]]
    # the unicode guide's scripts of each sentence's characters
    chars = tf.strings.unicode_decode(["Hi, \u4e16", ""], "UTF-8")
    assert tf.strings.unicode_script(chars).to_list() == [[25, 25, 0, 0, 17], []]


def test_function_with_ragged_input_signature_traces_once():
    traces = []

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def padded(rt):
        traces.append(1)
        return rt.to_tensor(), tf.reduce_sum(rt, axis=1), rt * 2.0

    dense, sums, doubled = padded(tf.ragged.constant([[1.0, 2.0], [3.0]]))
    assert dense.numpy().tolist() == [[1.0, 2.0], [3.0, 0.0]]
    assert sums.numpy().tolist() == [3.0, 3.0]
    assert isinstance(doubled, tf.RaggedTensor) and doubled.to_list() == [[2.0, 4.0], [6.0]]
    dense, _, _ = padded(tf.ragged.constant([[1.0], [], [2.0, 3.0, 4.0]]))
    assert dense.shape == (3, 3) and len(traces) == 1


def test_function_with_traced_ragged_argument():
    @tf.function
    def row_max(rt):
        return tf.reduce_max(rt, axis=1)

    assert row_max(tf.ragged.constant([[1, 5], [3]])).numpy().tolist() == [5, 3]


def test_gradients_flow_to_flat_values():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(x, [2, 1])
        y = tf.reduce_sum(rt.to_tensor(default_value=5.0) * [[1.0, 10.0], [100.0, 1000.0]])
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 10.0, 100.0]

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            rt = tf.RaggedTensor.from_row_lengths(x, [2, 1])
            y = tf.reduce_sum(tf.reduce_sum(rt * rt, axis=1))
        return tape.gradient(y, x)
    assert step().numpy().tolist() == [2.0, 4.0, 6.0]


def test_tape_watches_and_differentiates_ragged_tensors():
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
    with tf.GradientTape() as tape:
        tape.watch(rt)
        y = tf.reduce_sum(rt * rt)
    grad = tape.gradient(y, rt)
    assert isinstance(grad, tf.RaggedTensor) and grad.to_list() == [[2.0, 4.0], [6.0]]
    with tf.GradientTape() as tape:
        tape.watch(rt)
        z = rt * 3.0
    assert tape.gradient(z, rt).to_list() == [[3.0, 3.0], [3.0]]


def test_concrete_functions_bind_ragged_and_sparse_arguments():
    @tf.function
    def increment(x):
        return x + 1

    cf = increment.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int32))
    assert cf(tf.ragged.constant([[1], [2, 3]])).to_list() == [[2], [3, 4]]
    with pytest.raises(TypeError):
        cf(tf.ragged.constant([[1.0]]))

    @tf.function
    def dense(st):
        return tf.sparse.to_dense(st)

    st = tf.SparseTensor([[0, 1]], [5], [2, 2])
    assert dense.get_concrete_function(st)(st).numpy().tolist() == [[0, 5], [0, 0]]


def test_saved_model_round_trip_of_a_ragged_signature(tmp_path):
    class Module(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(10.0)

        @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
        def grow(self, x):
            return x * self.v

    tf.saved_model.save(Module(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded.grow(tf.ragged.constant([[1.0, 2.0], []])).to_list() == [[10.0, 20.0], []]


def test_ragged_feature_parsing():
    def example(**values):
        return tf.train.Example(features=tf.train.Features(feature={
            k: tf.train.Feature(int64_list=tf.train.Int64List(value=v))
            for k, v in values.items()})).SerializeToString()
    spec = {"a": tf.io.RaggedFeature(tf.int64), "b": tf.io.FixedLenFeature([], tf.int64)}
    parsed = tf.io.parse_example([example(a=[1, 2], b=[0]), example(b=[1])], spec)
    assert parsed["a"].to_list() == [[1, 2], []]
    assert parsed["b"].numpy().tolist() == [0, 1]
    single = tf.io.parse_single_example(example(a=[3], b=[0]), spec)
    assert single["a"].numpy().tolist() == [3]


def test_reverse_and_tile_inside_a_function():
    @tf.function
    def f(rt):
        return tf.reverse(rt, [1]), tf.tile(rt, [1, 2])

    reversed_, tiled = f(tf.ragged.constant([[1, 2, 3], [4]]))
    assert reversed_.to_list() == [[3, 2, 1], [4]]
    assert tiled.to_list() == [[1, 2, 3, 1, 2, 3], [4, 4]]


def test_dense_operands_broadcast_only_where_tf_broadcasts():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert (rt + tf.constant([10])).to_list() == [[11, 12], [13]]
    assert (rt + tf.constant([[10], [20]])).to_list() == [[11, 12], [23]]
    assert (rt + tf.constant([[10]])).to_list() == [[11, 12], [13]]
    for bad in ([10, 20, 30], [[10, 20]], [[10], [20], [30]]):  # (never a silent wrong sum)
        with pytest.raises(tf.errors.InvalidArgumentError):
            rt + tf.constant(bad)
    r3 = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert (r3 + tf.constant([[[10, 20]], [[30, 40]]])).to_list() == \
        [[[11, 22], [13, 24]], [[35, 46]]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        r3 + tf.constant([10, 20, 30])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.constant([[1], [2, 3]]) * 1.5  # (1.5 cannot take int32: TF's error)


def test_reductions_of_ragged_rank_two():
    rt = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])
    assert tf.reduce_sum(rt, axis=1).to_list() == [[4, 2], [4, 5, 6], []]
    assert tf.reduce_max(rt, axis=0).to_list() == [[4, 5, 6], [3]]
    assert tf.reduce_sum(rt, axis=2).to_list() == [[3, 3], [15], []]


def test_different_row_partitions_fail_inside_a_function_too():
    @tf.function
    def add(a, b):
        return a + b

    spec = tf.RaggedTensorSpec([None, None], tf.int32)
    cf = add.get_concrete_function(spec, spec)
    assert cf(tf.ragged.constant([[1], [2, 3]]), tf.ragged.constant([[1], [2, 3]])).to_list() \
        == [[2], [4, 6]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="identical ragged splits"):
        cf(tf.ragged.constant([[1], [2, 3]]), tf.ragged.constant([[1, 2], [3]]))


def test_keras_layers_and_fit_take_ragged_inputs():
    class Model(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.emb = tf.keras.layers.Embedding(10, 4, embeddings_initializer="ones")
            self.dense = tf.keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            return self.dense(tf.reduce_mean(self.emb(x), axis=1))

    model = Model()
    x = tf.ragged.constant([[1, 2], [3], [4, 5, 6], [7]])
    y = tf.constant([[1.0], [0.0], [1.0], [0.0]])
    assert model(x).numpy().tolist() == [[4.0]] * 4
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(x, y, epochs=2, batch_size=2, verbose=0, shuffle=False)
    # (TF 2.21 with tf_keras: 11.3363, 7.0842)
    assert [round(v, 4) for v in history.history["loss"]] == [11.3363, 7.0842]
    model.fit(x, y, epochs=1, batch_size=3, verbose=0)  # (shuffled: rows gathered)


def test_ragged_values_through_cond_while_loop_and_autograph_loops():
    @tf.function
    def f(rt, flag):
        chosen = tf.cond(flag, lambda: rt * 2, lambda: rt + 1)
        _, doubled = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2),
                                   [tf.constant(0), rt])
        out = rt
        for _ in tf.range(2):
            out = out + 1
        return chosen, doubled, out

    rt = tf.ragged.constant([[1, 2], [3]])
    chosen, doubled, out = f(rt, tf.constant(False))
    assert chosen.to_list() == [[2, 3], [4]]
    assert doubled.to_list() == [[8, 16], [24]]
    assert out.to_list() == [[3, 4], [5]]


def test_from_tensor_with_lengths_per_ragged_dimension_and_padding_checks():
    t = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    rt = tf.RaggedTensor.from_tensor(t, lengths=([2, 1], [2, 1, 1]), ragged_rank=2)
    assert rt.to_list() == [[[1, 2], [3]], [[5]]]
    with pytest.raises(ValueError):
        tf.RaggedTensor.from_tensor(t, padding=4)  # (padding has the inner shape, (2,))
    assert tf.RaggedTensor.from_tensor(t, padding=[7, 8]).to_list() == \
        [[[1, 2], [3, 4]], [[5, 6]]]


def test_softmax_dense_and_relu_layers_on_ragged_tensors():
    probs = tf.nn.softmax(tf.ragged.constant([[1.0, 2.0], [3.0]]))
    np.testing.assert_allclose(probs.flat_values.numpy(), [0.26894143, 0.7310586, 1.0],
                               rtol=1e-6)
    logs = tf.nn.log_softmax(tf.ragged.constant([[0.0, 0.0], [5.0]]))
    np.testing.assert_allclose(logs.flat_values.numpy(), [np.log(0.5), np.log(0.5), 0.0],
                               rtol=1e-6)
    rt = tf.ragged.constant([[[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]]], ragged_rank=1)
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones")(rt)
    assert dense.to_list() == [[[3.0, 3.0]], [[7.0, 7.0], [11.0, 11.0]]]
    relu = tf.keras.layers.Activation("relu")(tf.ragged.constant([[-1.0, 2.0], [3.0]]))
    assert relu.to_list() == [[0.0, 2.0], [3.0]]


def test_ragged_constant_of_numpy_rows():
    rt = tf.ragged.constant([np.array([1, 2]), np.array([3])])
    assert rt.to_list() == [[1, 2], [3]] and rt.dtype == tf.int32
    rows = np.array([np.array([1.5], np.float32), np.array([], np.float32)], dtype=object)
    assert tf.ragged.constant(rows).to_list() == [[1.5], []]


def test_ragged_constant_inside_a_function():
    @tf.function
    def f(x):
        rt = tf.ragged.constant([[1, 2], [3]], dtype=tf.int64)
        return rt + x, tf.ragged.constant([["a"], ["b", "c"]]).row_splits

    rt, splits = f(tf.constant(1, tf.int64))
    assert rt.to_list() == [[2, 3], [4]] and rt.dtype == tf.int64
    assert splits.numpy().tolist() == [0, 1, 3]


def test_ragged_feature_partitions():
    def example(**values):
        return tf.train.Example(features=tf.train.Features(feature={
            k: tf.train.Feature(int64_list=tf.train.Int64List(value=v))
            for k, v in values.items()})).SerializeToString()
    batch = [example(v=[1, 2, 3, 4, 5], lens=[2, 3], splits=[0, 2, 5]),
             example(v=[6, 7], lens=[1, 0, 1], splits=[0, 1, 1, 2])]
    want = [[[1, 2], [3, 4, 5]], [[6], [], [7]]]
    for partition in (tf.io.RaggedFeature.RowLengths("lens"),
                      tf.io.RaggedFeature.RowSplits("splits")):
        spec = {"r": tf.io.RaggedFeature(tf.int64, value_key="v", partitions=[partition])}
        assert tf.io.parse_example(batch, spec)["r"].to_list() == want
        assert tf.io.parse_single_example(batch[0], spec)["r"].to_list() == want[0]
    spec = {"r": tf.io.RaggedFeature(tf.int64, value_key="v", partitions=[
        tf.io.RaggedFeature.UniformRowLength(1), tf.io.RaggedFeature.RowLengths("lens")])}
    assert tf.io.parse_example(batch, spec)["r"].to_list() == \
        [[[[1, 2]], [[3, 4, 5]]], [[[6]], [[]], [[7]]]]


def test_ragged_feature_innermost_uniform_rows_stay_dense():
    # (TF: an innermost UniformRowLength reshapes the values, in a batch as for one example)
    ex = tf.train.Example(features=tf.train.Features(feature={
        "v": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2, 3, 4]))}))
    spec = {"v": tf.io.RaggedFeature(tf.int64, partitions=[
        tf.io.RaggedFeature.UniformRowLength(2), tf.io.RaggedFeature.UniformRowLength(1)])}
    rt = tf.io.parse_example([ex.SerializeToString()] * 2, spec)["v"]
    assert rt.ragged_rank == 1 and rt.shape.as_list() == [2, None, 2, 1]
    assert rt.flat_values.shape.as_list() == [4, 2, 1]
    assert rt.to_list()[1] == [[[1], [2]], [[3], [4]]]


# -- reductions at every axis of ragged rank 2 and 3, keepdims, variance (values from TF) ----
_R3 = [[[1, 2], [3]], [[4, 5, 6]], []]
_R4 = [[[[1, 2], [3]], [[4]]], [[[5, 6, 7]]]]


@pytest.mark.parametrize("op, value, axis, keepdims, expected", [
    ("reduce_max", _R3, 0, True, [[[4, 5, 6], [3]]]),
    ("reduce_max", _R3, 1, True, [[[3, 2]], [[4, 5, 6]], [[]]]),
    ("reduce_mean", _R3, 0, True, [[[2.5, 3.5, 6.0], [3.0]]]),
    ("reduce_mean", _R3, -1, True, [[[1.5], [3.0]], [[5.0]], []]),
    ("reduce_mean", _R3, (0, 1), True, [[[8 / 3, 3.5, 6.0]]]),
    ("reduce_sum", _R4, 1, False, [[[5, 2], [3]], [[5, 6, 7]]]),
    ("reduce_sum", _R4, 1, True, [[[[5, 2], [3]]], [[[5, 6, 7]]]]),
    ("reduce_sum", _R4, 2, True, [[[[4, 2]], [[4]]], [[[5, 6, 7]]]]),
    ("reduce_sum", _R4, 3, True, [[[[3], [3]], [[4]]], [[[18]]]]),
    ("reduce_sum", _R4, (2, 3), True, [[[[6]], [[4]]], [[[18]]]]),
])
def test_ragged_reductions_keep_ragged_dims(op, value, axis, keepdims, expected):
    out = getattr(tf.math, op)(tf.ragged.constant(value), axis=axis, keepdims=keepdims)
    assert isinstance(out, tf.RaggedTensor)
    got = out.to_list()
    assert np.array(got, dtype=object).shape == np.array(expected, dtype=object).shape
    for g, e in zip(tf.nest.flatten(got), tf.nest.flatten(expected)):
        assert np.isclose(g, e)
    assert str(got).count("[") == str(expected).count("[")


def test_ragged_reduce_variance_and_std():
    x = tf.ragged.constant([[1., 2.], [3.], []])
    np.testing.assert_allclose(tf.math.reduce_variance(x, axis=0).numpy(), [1., 0.])
    np.testing.assert_allclose(tf.math.reduce_variance(x, axis=1).numpy(), [0.25, 0., np.nan])
    np.testing.assert_allclose(tf.math.reduce_std(x, axis=1, keepdims=True).numpy(),
                               [[0.5], [0.], [np.nan]])
    np.testing.assert_allclose(tf.math.reduce_std(x, keepdims=True).numpy(), [[0.8164965]],
                               rtol=1e-6)


# -- tf.ragged.cross / cross_hashed (values from TF) -----------------------------------------
def _cross_inputs():
    return (tf.ragged.constant([["a", "b"], ["c"]]), tf.ragged.constant([["x"], ["y", "z"]]),
            tf.constant([["d"], ["e"]]),
            tf.sparse.from_dense(tf.constant([["s1", ""], ["s2", "s3"]])),
            tf.ragged.constant([[1, 2], []], dtype=tf.int64))


def test_ragged_cross_keeps_the_order_of_its_inputs():
    a, b, d, s, i = _cross_inputs()
    assert tf.ragged.cross([a, b]).to_list() == [[b"a_X_x", b"b_X_x"], [b"c_X_y", b"c_X_z"]]
    assert tf.ragged.cross([a, b, d]).to_list() == [[b"a_X_x_X_d", b"b_X_x_X_d"],
                                                    [b"c_X_y_X_e", b"c_X_z_X_e"]]
    assert tf.ragged.cross([a, s]).to_list() == [[b"a_X_s1", b"b_X_s1"],
                                                 [b"c_X_s2", b"c_X_s3"]]
    assert tf.ragged.cross([a, i]).to_list() == [[b"a_X_1", b"a_X_2", b"b_X_1", b"b_X_2"], []]
    assert tf.ragged.cross([d, d]).to_list() == [[b"d_X_d"], [b"e_X_e"]]
    empty = tf.ragged.cross([])
    assert empty.to_list() == [] and empty.dtype == tf.string
    assert tf.ragged.cross_hashed([]).dtype == tf.int64


def test_ragged_cross_hashed():
    a, b, d, s, i = _cross_inputs()
    assert tf.ragged.cross_hashed([a, b], num_buckets=100).to_list() == [[92, 4], [60, 80]]
    assert tf.ragged.cross_hashed([a, b, d]).to_list() == [
        [3764376893235476995, 5716010837467442213], [3115946018236383428, 4315160972392732072]]
    assert tf.ragged.cross_hashed([a, i], num_buckets=10, hash_key=7).to_list() == [
        [7, 0, 2, 3], []]

    @tf.function
    def crossed(x, y):
        return tf.ragged.cross_hashed([x, y], num_buckets=5)
    assert crossed(a, a).to_list() == [[0, 1, 0, 2], [2]]


def test_ragged_cross_keeps_int32_row_splits_and_checks_its_inputs():
    a = tf.ragged.constant([["a", "b"], ["c"]])
    out = tf.ragged.cross([a.with_row_splits_dtype(tf.int32), a.with_row_splits_dtype(tf.int32)])
    assert out.row_splits.dtype == tf.int32 and out.to_list()[1] == [b"c_X_c"]
    with pytest.raises(ValueError, match="only supports inputs with rank=2"):
        tf.ragged.cross([tf.ragged.constant([[["a"]]]), a])
    with pytest.raises(ValueError, match=r"Unexpected dtype for inputs\[0\]"):
        tf.ragged.cross([tf.ragged.constant([[1.]]), a])
    with pytest.raises(tf.errors.InvalidArgumentError, match="same batch dimension size"):
        tf.ragged.cross([tf.ragged.constant([["x"]]), a])
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank=2"):
        tf.ragged.cross([tf.constant(["a", "b"]), a])


# -- cumsum and one_hot of ragged tensors (values from TF) ------------------------------------
@pytest.mark.parametrize("exclusive, reverse, expected", [
    (False, False, [[1., 3.], [3.], []]), (True, False, [[0., 1.], [0.], []]),
    (False, True, [[3., 2.], [3.], []]), (True, True, [[2., 0.], [0.], []])])
def test_ragged_cumsum_along_rows(exclusive, reverse, expected):
    x = tf.ragged.constant([[1., 2.], [3.], []])
    assert tf.math.cumsum(x, axis=1, exclusive=exclusive, reverse=reverse).to_list() == expected

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def traced(v):
        return tf.math.cumsum(v, axis=-1, exclusive=exclusive, reverse=reverse)
    assert traced(x).to_list() == expected


def test_ragged_cumsum_at_outer_and_uniform_axes():
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])
    assert tf.math.cumsum(r3, axis=0).to_list() == [[[1, 2], [3]], [[5, 7, 6]], []]
    assert tf.math.cumsum(r3, axis=1).to_list() == [[[1, 2], [4]], [[4, 5, 6]], []]
    assert tf.math.cumsum(tf.ragged.constant([[1., 2.], [3.], []])).to_list() == \
        [[1., 2.], [4.], []]
    uniform = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert tf.math.cumsum(uniform, axis=2).to_list() == [[[1, 3], [3, 7]], [[5, 11]]]
    with pytest.raises(ValueError):
        tf.math.cumsum(tf.ragged.constant([[1.]]), axis=2)


def test_ragged_one_hot():
    ids = tf.ragged.constant([[1, 0], [2]])
    assert tf.one_hot(ids, 3).to_list() == [[[0., 1., 0.], [1., 0., 0.]], [[0., 0., 1.]]]
    out = tf.one_hot(ids, 3, on_value=5, off_value=-1, axis=-1)
    assert out.dtype == tf.int32 and out.to_list() == [[[-1, 5, -1], [5, -1, -1]],
                                                       [[-1, -1, 5]]]
    assert tf.one_hot(ids, 3, axis=2, dtype=tf.int64).dtype == tf.int64
    with pytest.raises(ValueError, match=r"axis \(1\) must be greater than "
                                         r"indices.ragged_rank \(1\)"):
        tf.one_hot(ids, 3, axis=1)


@pytest.mark.parametrize("indices", [[[0, 0], [1, 1]], [[0, 1]], [[0, 0], [0, 2]]])
def test_from_sparse_refuses_entries_that_are_not_right_ragged(indices):
    # (they were moved left: [[0, 0], [1, 1]] gave [[1], [2]])
    st = tf.SparseTensor(indices, list(range(1, len(indices) + 1)), [2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not right-ragged"):
        tf.RaggedTensor.from_sparse(st)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not right-ragged"):
        tf.function(lambda s: tf.RaggedTensor.from_sparse(s).flat_values)(st)


def test_from_sparse_of_right_ragged_rows():
    st = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 3])
    assert tf.RaggedTensor.from_sparse(st).to_list() == [[1, 2], [], [3]]
    rows = tf.function(lambda s: tf.RaggedTensor.from_sparse(s).row_lengths())(st)
    assert rows.numpy().tolist() == [2, 0, 1]


def test_row_splits_of_different_dtypes_do_not_mix():
    a = tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32)
    b = tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int64)
    for combine in (lambda: a + b, lambda: tf.concat([a, b], 0),
                    lambda: tf.where(a > 1, a, b)):
        with pytest.raises(ValueError, match="mismatched row_splits dtypes"):
            combine()
    assert (a + b.with_row_splits_dtype(tf.int32)).to_list() == [[2, 4], [6]]


def test_more_of_tfs_elementwise_ragged_dispatch():
    ft = tf.ragged.constant([[0.5, 2.], [], [3.]])
    for op in (tf.math.reciprocal_no_nan, tf.math.bessel_i0e, tf.math.special.dawsn,
               tf.math.special.bessel_j0, tf.math.special.spence):
        out = op(ft)
        assert isinstance(out, tf.RaggedTensor)
        np.testing.assert_allclose(out.flat_values.numpy(), op(ft.flat_values).numpy())
    assert tf.math.xlog1py(ft, ft).row_splits.numpy().tolist() == [0, 2, 2, 3]
    assert tf.dtypes.complex(ft, ft).dtype == tf.complex64
    loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=ft, logits=ft)
    assert loss.to_list()[1] == []
    assert tf.io.encode_base64(tf.ragged.constant([["hi"], []])).to_list() == [[b"aGk"], []]
    img = tf.ragged.constant([[[0.1, 0.2, 0.3]], []], ragged_rank=1)
    np.testing.assert_allclose(tf.image.adjust_brightness(img, 0.5).flat_values.numpy(),
                               [[0.6, 0.7, 0.8]])


def test_unsorted_segment_reductions_of_ragged_data():
    """Values recorded from TF 2.21."""
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    ids = tf.ragged.constant([[0, 1, 0], [], [1, 1]])
    assert tf.math.unsorted_segment_sum(rt, ids, 2).numpy().tolist() == [5, 10]
    assert tf.math.unsorted_segment_prod(rt, ids, 2).numpy().tolist() == [6, 20]
    assert tf.math.unsorted_segment_max(rt, ids, 3).numpy().tolist() == [3, 5, -2147483648]
    np.testing.assert_allclose(tf.math.unsorted_segment_mean(
        tf.cast(rt, tf.float32), ids, 2).numpy(), [2.5, 3.3333333])
    np.testing.assert_allclose(tf.math.unsorted_segment_sqrt_n(
        tf.cast(rt, tf.float32), ids, 2).numpy(), [3.535534, 5.773503], rtol=1e-6)
    rows = tf.math.unsorted_segment_sum(rt, [0, 1, 0], 2)  # whole rows, aligned at the start
    assert rows.to_list() == [[8, 5, 2], []]
    assert tf.math.unsorted_segment_min(rt, tf.constant([1, 1, 0], tf.int64), 3).to_list() \
        == [[5, 4], [3, 1, 2], []]
    r2 = tf.ragged.constant([[[1.], [2.]], [], [[3.]]], ragged_rank=1)
    assert tf.math.unsorted_segment_sum(r2, tf.ragged.constant([[0, 1], [], [0]]),
                                        2).numpy().tolist() == [[4.], [2.]]
    with pytest.raises(ValueError, match="segment_ids is ragged and data is not"):
        tf.math.unsorted_segment_sum([1, 2, 3, 4, 5], ids, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be a prefix of data.shape"):
        tf.math.unsorted_segment_sum(rt, tf.ragged.constant([[0, 1], [0], [1, 1]]), 2)
    traced = tf.function(lambda d, i: tf.math.unsorted_segment_sum(d, i, 2))
    assert traced(rt, tf.constant([0, 1, 0])).to_list() == [[8, 5, 2], []]


def test_squeeze_split_and_dynamic_partition_of_ragged():
    """As TF 2.21."""
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    assert tf.squeeze(tf.ragged.constant([[[1]], [[2], [3]]]), axis=2).to_list() == \
        [[1], [2, 3]]
    uniform = tf.ragged.constant([[[1.], [2.]], [], [[3.]]], ragged_rank=1)
    assert tf.squeeze(uniform, axis=-1).to_list() == [[1., 2.], [], [3.]]
    squeezed = tf.squeeze(tf.ragged.constant([[1, 2]]), axis=0)
    assert isinstance(squeezed, tf.Tensor) and squeezed.numpy().tolist() == [1, 2]
    nested = tf.ragged.constant([[[1, 2]], [[3]]])
    assert tf.squeeze(nested, axis=1).to_list() == [[1, 2], [3]]
    assert tf.squeeze(tf.ragged.constant([[[[1], [2]]], [[[3]]]]), axis=[1, 3]).to_list() == \
        [[1, 2], [3]]
    with pytest.raises(ValueError, match="Ragged.squeeze must have an axis argument"):
        tf.squeeze(rt)
    with pytest.raises(ValueError, match=r"axis\[0\]=5 out of bounds"):
        tf.squeeze(rt, axis=5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"axis = 1\) is not squeezable"):
        tf.squeeze(rt, axis=1)
    assert [p.to_list() for p in tf.split(rt, 3)] == [[[3, 1, 2]], [[]], [[5, 4]]]
    assert [p.to_list() for p in tf.split(rt, [1, -1])] == [[[3, 1, 2]], [[], [5, 4]]]
    assert [p.to_list() for p in tf.split(rt, 1, axis=1)] == [rt.to_list()]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot exactly split"):
        tf.split(rt, 2)
    parts = tf.dynamic_partition(rt, [0, 1, 0], 2)
    assert [p.to_list() for p in parts] == [[[3, 1, 2], [5, 4]], [[]]]
    flat = tf.dynamic_partition(rt, tf.ragged.constant([[0, 1, 0], [], [1, 1]]), 2)
    assert [p.numpy().tolist() for p in flat] == [[3, 2], [1, 5, 4]]


def test_bincount_of_ragged_values():
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    assert tf.math.bincount(rt).numpy().tolist() == [0, 1, 1, 1, 1, 1]
    per_row = tf.math.bincount(rt, axis=-1)
    assert per_row.dtype == tf.int32 and per_row.numpy().tolist() == [
        [0, 1, 1, 1, 0, 0], [0] * 6, [0, 0, 0, 0, 1, 1]]
    capped = tf.math.bincount(rt, axis=-1, maxlength=4, dtype=tf.int64)
    assert capped.dtype == tf.int64 and capped.numpy().tolist() == [[0, 1, 1, 1], [0] * 4,
                                                                    [0] * 4]
    weighted = tf.math.bincount(rt, weights=tf.cast(rt, tf.float32), axis=-1)
    assert weighted.numpy().tolist()[2] == [0., 0., 0., 0., 4., 5.]
    assert tf.math.bincount(rt, weights=tf.cast(rt, tf.float32)).numpy().tolist() == \
        [0., 1., 2., 3., 4., 5.]
    sparse = tf.sparse.bincount(rt, axis=-1, minlength=7, binary_output=True)
    assert sparse.indices.numpy().tolist() == [[0, 1], [0, 2], [0, 3], [2, 4], [2, 5]]
    assert sparse.dense_shape.numpy().tolist() == [3, 7]


def test_ragged_tensors_are_unhashable():
    with pytest.raises(TypeError, match="RaggedTensor is unhashable."):
        hash(tf.ragged.constant([[1]]))


def test_strings_format_and_print_of_ragged_tensors(capsys):
    """TF's text of a ragged tensor (recorded from TF 2.21): nested lists, %f floats,
    quoted strings, rows cut to `summarize` values at each end."""
    def text(*inputs, **options):
        return tf.strings.format("{}", list(inputs), **options).numpy().decode()
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    assert text(rt) == "[[3, 1, 2], [], [5, 4]]"
    assert text(tf.ragged.constant([[1.5, 2.25], [-3.0]])) == "[[1.500000, 2.250000], " \
                                                               "[-3.000000]]"
    assert text(tf.ragged.constant([["it's", "a\\b"], []])) == "[['it\\'s', 'a\\\\b'], []]"
    assert text(tf.ragged.constant([[True], [False]])) == "[[true], [false]]"
    assert text(tf.ragged.constant([[[1, 2], [3, 4]], []], ragged_rank=1)) == \
        "[[[1, 2], [3, 4]], []]"
    assert text(tf.ragged.constant([[1, 2, 3, 4, 5, 6, 7]])) == "[[1, 2, 3, ..., 5, 6, 7]]"
    assert text(tf.ragged.constant([[1, 2, 3, 4, 5, 6, 7]]), summarize=-1) == \
        "[[1, 2, 3, 4, 5, 6, 7]]"
    assert text(tf.ragged.constant([[1], [2], [3], [4], [5]]), summarize=2) == \
        "[[1], [2], ..., [4], [5]]"
    mixed = tf.strings.format("a{}b{}", [rt, tf.constant("s")]).numpy().decode()
    assert mixed == 'a[[3, 1, 2], [], [5, 4]]b"s"'
    with pytest.raises(ValueError, match="Expected summarize to be -1 or a positive int"):
        text(rt, summarize=0)
    traced = tf.function(lambda x: tf.strings.format("{}", [x]))
    assert traced(rt).numpy().decode() == "[[3, 1, 2], [], [5, 4]]"
    tf.print("x", tf.ragged.constant([[1.5]]), tf.constant([1.5, 2.]), "end", sep="|",
             output_stream=sys.stdout)
    tf.print(tf.ragged.constant([[1, 2, 3, 4, 5, 6, 7]]), summarize=1, output_stream=sys.stdout)
    tf.function(lambda x: [tf.print(x, output_stream=sys.stdout)] and None)(rt)  # (no op returned)
    assert capsys.readouterr().out == "x|[[1.500000]]|[1.5 2]|end\n[[1, ..., 7]]\n" \
                                      "[[3, 1, 2], [], [5, 4]]\n"


def test_matmul_of_ragged_operands():
    """Values recorded from TF 2.21."""
    square = tf.ragged.constant([[1., 2.], [3., 4.]])
    out = tf.linalg.matmul(square, tf.constant([[1.], [1.]]))
    assert isinstance(out, tf.Tensor) and out.numpy().tolist() == [[3.], [7.]]
    assert tf.matmul(square, tf.constant([[1., 1.]]), transpose_b=True).numpy().tolist() == \
        [[3.], [7.]]
    assert tf.matmul(square, tf.ragged.constant([[1.], [1.]])).numpy().tolist() == [[3.], [7.]]
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="may not be ragged in their innermost dimension"):
        tf.matmul(rt, rt)
    a = tf.ragged.constant([[[1., 2.]], [[3., 4.], [5., 6.]]], ragged_rank=1)
    b = tf.constant([[[1.], [1.]], [[2.], [3.]]])
    want = [[[3.]], [[18.], [28.]]]
    assert tf.matmul(a, b).to_list() == want
    assert tf.matmul(a, tf.constant([[[1., 1.]], [[2., 3.]]]), transpose_b=True).to_list() == \
        want
    assert tf.matmul(tf.ragged.constant([[[1., 2.]], [[3., 4.], [5., 6.]]]),
                     tf.ragged.constant([[[1.], [1.]], [[2.], [3.]]])).to_list() == want
    assert tf.matmul(tf.constant([[[1., 2.]], [[3., 4.]]]),
                     tf.ragged.constant([[[1.], [1.]], [[2.], [3.]]],
                                        ragged_rank=1)).to_list() == [[[3.]], [[18.]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible"):
        tf.matmul(tf.ragged.constant([[[1., 2.]], [[3., 4., 5.]]]),
                  tf.ragged.constant([[[1.], [1.]], [[2.], [3.]]]))
    traced = tf.function(lambda x, y: tf.matmul(x, y))
    assert traced(a, b).to_list() == want
    with pytest.raises(ValueError, match="'RaggedTensor' has no len"):
        a @ b  # (TF's RaggedTensor has no @)


def test_assertions_and_broadcast_to_of_ragged():
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    tf.debugging.assert_equal(rt, rt)
    tf.debugging.assert_less(rt, rt + 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        tf.debugging.assert_equal(rt, rt + 1)
    shape = tf.shape(rt, out_type=tf.int64)
    assert tf.broadcast_to(7, shape).to_list() == [[7, 7, 7], [], [7, 7]]
    assert tf.broadcast_to(rt, shape).to_list() == rt.to_list()
    assert tf.broadcast_to([[1], [2], [3]], tf.shape(rt)).to_list() == [[1, 1, 1], [], [3, 3]]
    with pytest.raises(ValueError, match="Cannot coerce row_splits.dtype"):
        tf.broadcast_to(rt, tf.shape(rt))
    with pytest.raises(ValueError, match="'RaggedTensor' has no len"):
        tf.broadcast_to(rt, [3, 3])


def test_gather_within_rows_of_ragged_params():
    """TF's gather along axis 1 (or a uniform inner one): each row's values from its start
    (TF checks no row's length: an empty row reads the next one's); values recorded from
    TF 2.21."""
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    assert tf.gather(rt, [0, 1], axis=1).numpy().tolist() == [[3, 1], [5, 4], [5, 4]]
    assert tf.gather(rt, [0], axis=-1).numpy().tolist() == [[3], [5], [5]]
    assert tf.gather(rt, [[0], [1]], axis=1).shape == [3, 2, 1]
    assert tf.gather(rt, tf.ragged.constant([[0], [], [1, 0]]), axis=1,
                     batch_dims=1).to_list() == [[3], [], [4, 5]]
    assert tf.gather(rt, [[0], [0], [1]], axis=1, batch_dims=1).numpy().tolist() == \
        [[3], [5], [4]]
    r2 = tf.ragged.constant([[[1], [2, 3]], [], [[4, 5, 6]]])
    assert tf.gather(r2, [0], axis=1).to_list() == [[[1]], [[4, 5, 6]], [[4, 5, 6]]]
    uniform = tf.ragged.constant([[[1, 2], [3, 4]], [], [[5, 6]]], ragged_rank=1)
    assert tf.gather(uniform, [1], axis=2).to_list() == [[[2], [4]], [], [[6]]]
    dense = tf.constant([[1, 2, 3], [4, 5, 6]])
    assert tf.gather(dense, tf.ragged.constant([[0, 2], [1]]), axis=1,
                     batch_dims=1).to_list() == [[1, 3], [5]]
    with pytest.raises(tf.errors.UnimplementedError):
        tf.gather(dense, tf.ragged.constant([[0, 2], [1]]), axis=1)


def test_slices_inside_rows_in_a_function():
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    assert tf.function(lambda x: x[:, :1])(rt).to_list() == [[3], [], [5]]
    assert tf.function(lambda x: x[:, -1:])(rt).to_list() == [[2], [], [4]]
    last = tf.function(lambda x, n: x[:, -n:])
    assert last(rt, tf.constant(1)).to_list() == [[2], [], [4]]
    assert last(rt, tf.constant(2)).to_list() == [[1, 2], [], [5, 4]]


def test_tfs_raw_ragged_range_and_to_sparse():
    """Values and errors recorded from TF 2.21 (graphs TF writes for tf.ragged.range,
    slices and to_sparse hold these ops)."""
    splits, values = tf.raw_ops.RaggedRange(starts=[10, 0], limits=0, deltas=-3)
    assert splits.numpy().tolist() == [0, 4, 4] and values.numpy().tolist() == [10, 7, 4, 1]
    splits, values = tf.raw_ops.RaggedRange(starts=0.5, limits=2.0, deltas=0.5,
                                            Tsplits=tf.int32)
    assert splits.dtype == tf.int32 and values.numpy().tolist() == [0.5, 1.0, 1.5]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0"):
        tf.raw_ops.RaggedRange(starts=[0], limits=[1], deltas=[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have the same shape"):
        tf.raw_ops.RaggedRange(starts=[0, 1], limits=[1, 2, 3], deltas=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="starts must be a scalar or"):
        tf.raw_ops.RaggedRange(starts=[[0]], limits=[1], deltas=1)
    indices, values, shape = tf.raw_ops.RaggedTensorToSparse(
        rt_nested_splits=[[0, 2, 3], [0, 1, 1, 3]], rt_dense_values=[1, 2, 3])
    assert indices.numpy().tolist() == [[0, 0, 0], [1, 0, 0], [1, 0, 1]]
    assert shape.numpy().tolist() == [2, 2, 2] and values.numpy().tolist() == [1, 2, 3]
    empty = tf.raw_ops.RaggedTensorToSparse(rt_nested_splits=[[0]],
                                            rt_dense_values=tf.zeros([0], tf.int32))
    assert empty.sparse_indices.shape == [0, 2] and empty.sparse_dense_shape.numpy().tolist() \
        == [0, 0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Final value of ragged splits"):
        tf.raw_ops.RaggedTensorToSparse(rt_nested_splits=[[0, 2, 3]], rt_dense_values=[1, 2])


def test_tfs_raw_ragged_gather():
    """Values and errors recorded from TF 2.21."""
    out = tf.raw_ops.RaggedGather(params_nested_splits=[[0, 3, 3, 5]],
                                  params_dense_values=[3, 1, 2, 5, 4], indices=[[2], [0]],
                                  OUTPUT_RAGGED_RANK=2)
    assert [s.numpy().tolist() for s in out.output_nested_splits] == [[0, 1, 2], [0, 2, 5]]
    assert out.output_dense_values.numpy().tolist() == [5, 4, 3, 1, 2]
    one = tf.raw_ops.RaggedGather(params_nested_splits=[[0, 2, 2, 3], [0, 1, 3, 6]],
                                  params_dense_values=[1, 2, 3, 4, 5, 6], indices=0,
                                  OUTPUT_RAGGED_RANK=1)
    assert [s.numpy().tolist() for s in one.output_nested_splits] == [[0, 1, 3]]
    assert one.output_dense_values.numpy().tolist() == [1, 2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 3 is not in "
                                                             r"\[0, 3\)"):
        tf.raw_ops.RaggedGather(params_nested_splits=[[0, 3, 3, 5]],
                                params_dense_values=[3, 1, 2, 5, 4], indices=[3],
                                OUTPUT_RAGGED_RANK=1)
    traced = tf.function(lambda v: tf.raw_ops.RaggedGather(
        params_nested_splits=[[0, 1, 3]], params_dense_values=v, indices=[1],
        OUTPUT_RAGGED_RANK=1).output_dense_values)
    assert traced(tf.constant([[1., 2.], [3., 4.], [5., 6.]])).numpy().tolist() == \
        [[3., 4.], [5., 6.]]


def test_ragged_range_of_vectors_known_when_the_function_runs():
    """TF's RaggedRange: scalars broadcast against vectors of any one length (none too)."""
    rows = tf.function(lambda n: tf.ragged.range(tf.range(n)))
    assert rows(tf.constant(2, tf.int64)).to_list() == [[], [0]]
    assert rows(tf.constant(0, tf.int64)).to_list() == []
    assert tf.ragged.range(0.5, [2., 3.], 0.5).to_list() == [[0.5, 1.0, 1.5],
                                                             [0.5, 1.0, 1.5, 2.0, 2.5]]
    assert tf.ragged.range(3, row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0"):
        tf.ragged.range([1], [2], [0])


def test_ragged_range_row_count_is_static_where_the_inputs_fix_it():
    """TF's shapes: one row of scalars, a row per element of a vector of known length (a
    dataset's element_spec shows them)."""
    shapes = []

    @tf.function
    def rows(x, y):
        shapes.extend(t.shape.as_list() for t in (
            tf.ragged.range(x), tf.ragged.range(y), tf.ragged.range(y, y + 2),
            tf.ragged.range(1, y)))
        return 0

    rows(tf.constant(3), tf.constant([1, 2]))
    rows.get_concrete_function(tf.TensorSpec(None, tf.int32), tf.TensorSpec([None], tf.int32))
    assert shapes == [[1, None], [2, None], [2, None], [2, None]] + [[None, None]] * 4
    ds = tf.data.Dataset.range(4).map(lambda x: tf.ragged.range(x))
    assert ds.batch(2).element_spec == tf.RaggedTensorSpec([None, 1, None], tf.int64, 2)


def test_moments_and_logsumexp_of_ragged():
    """Values recorded from TF 2.21 (an empty row: nan moments, -inf logsumexp)."""
    x = tf.ragged.constant([[3., 1., 2.], [], [5., 4.]])
    mean, variance = tf.nn.moments(x, axes=[1])
    np.testing.assert_array_equal(mean.numpy(), np.array([2., np.nan, 4.5], np.float32))
    np.testing.assert_array_equal(variance.numpy(), np.array([0.6666667, np.nan, 0.25],
                                                             np.float32))
    mean, variance = tf.nn.moments(x, axes=[0, 1])
    assert (mean.numpy(), variance.numpy()) == (3.0, 2.0)
    assert tf.nn.moments(x, axes=[1], keepdims=True)[1].shape == [3, 1]
    np.testing.assert_array_equal(tf.math.reduce_logsumexp(x, axis=1).numpy(),
                                  np.array([3.4076061, -np.inf, 5.3132615], np.float32))
    assert tf.math.reduce_logsumexp(x, axis=-1, keepdims=True).shape == [3, 1]
    np.testing.assert_allclose(tf.math.reduce_logsumexp(x).numpy(), 5.451914310455322)
    big = tf.ragged.constant([[1000., 1000.], [-float("inf")]])
    np.testing.assert_array_equal(tf.math.reduce_logsumexp(big, axis=1).numpy(),
                                  np.array([1000.6932, -np.inf], np.float32))


def test_invalid_row_partitions_raise_tfs_messages():
    """TF's assertion messages (recorded from TF 2.21)."""
    cases = [
        (lambda: tf.RaggedTensor.from_row_splits([1, 2], [0, 3]),
         "Arguments to _from_row_partition do not form a valid RaggedTensor\nCondition x == y "
         "did not hold.\nFirst 1 elements of x:\n[3]\nFirst 1 elements of y:\n[2]"),
        (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1, 3]),
         "Arguments to from_row_splits do not form a valid RaggedTensor:monotonic.  \n"
         "Condition x >= 0 did not hold element-wise:\nx (shape=(3,) dtype=int64) = \n"
         "['2', '-1', '2']"),
        (lambda: tf.RaggedTensor.from_row_splits([1, 2], [1, 2]),
         "Arguments to from_row_splits do not form a valid RaggedTensor:zero\nCondition x == "
         "y did not hold.\nFirst 1 elements of x:\n[1]\nFirst 1 elements of y:\n[0]"),
        (lambda: tf.RaggedTensor.from_row_lengths([1, 2], [-1, 3]),
         "Arguments to from_row_lengths do not form a valid RowPartition.  \nCondition x >= 0 "
         "did not hold element-wise:\nx (shape=(2,) dtype=int64) = \n['-1', '3']"),
        (lambda: tf.RaggedTensor.from_value_rowids([1, 2], [1, 0]),
         "Arguments to from_value_rowids do not form a valid RowPartition.  \nCondition x >= 0 "
         "did not hold element-wise:\nx (shape=(1,) dtype=int64) = \n['-1']")]
    for make, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            make()
        assert str(info.value) == message
    with pytest.raises(ValueError, match="row_splits tensor may not be empty."):
        tf.RaggedTensor.from_row_splits([1, 2], [])


def test_operands_of_other_row_partitions_raise_tfs_assertion():
    """Recorded from TF 2.21: the row counts compared, then the splits."""
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        rt + tf.ragged.constant([[1], [], [2, 3]])
    assert str(info.value) == (
        "Condition x == y did not hold.\nIndices of first 3 different values:\n[[1]\n [2]\n "
        "[3]]\nCorresponding x values:\n[3 3 5]\nCorresponding y values:\n[1 1 3]\nFirst 3 "
        "elements of x:\n[0 3 3]\nFirst 3 elements of y:\n[0 1 1]")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        rt + tf.ragged.constant([[1], [2, 3]])
    assert str(info.value) == ("Condition x == y did not hold.\nFirst 1 elements of x:\n"
                               "[False]\nFirst 1 elements of y:\n[ True]")


# -- TF's ops of crosses, bincounts and map_fn (values and messages checked with TF 2.21) -------
def _ops_of(fn, *specs):
    return {op.type for op in tf.function(fn).get_concrete_function(*specs).graph
            .get_operations()}


def test_cross_bincount_and_map_fn_graphs_hold_tfs_ragged_ops():
    ids = tf.RaggedTensorSpec([None, None], tf.int64)
    words = tf.RaggedTensorSpec([None, None], tf.string)
    assert "RaggedCross" in _ops_of(lambda a, b: tf.ragged.cross([a, b]), ids, words)
    assert "RaggedBincount" in _ops_of(lambda a: tf.math.bincount(a, axis=-1), ids)
    assert "RaggedCountSparseOutput" in _ops_of(lambda a: tf.sparse.bincount(a, axis=-1), ids)
    assert {"RaggedTensorToVariant", "RaggedTensorFromVariant"} <= _ops_of(
        lambda a: tf.map_fn(lambda row: row * 2, a), ids)


def test_map_fn_over_ragged_rows_in_a_function_gives_tfs_results():
    rt = tf.ragged.constant([[1, 2, 2], [], [5], [7, 8]], tf.int64)

    def split(row):  # a ragged result per row
        n = tf.size(row, tf.int64)
        return tf.RaggedTensor.from_row_lengths(row, tf.stack([tf.minimum(n, 1),
                                                               tf.maximum(n - 1, 0)]))
    spec = tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64)
    expected = [[[1], [2, 2]], [[], []], [[5], []], [[7], [8]]]
    assert tf.map_fn(split, rt, fn_output_signature=spec).to_list() == expected
    assert tf.function(lambda x: tf.map_fn(split, x, fn_output_signature=spec))(
        rt).to_list() == expected
    nested = tf.ragged.constant([[[1.0, 2.0], [3.0]], [], [[4.0]]])
    plus = tf.function(lambda x: tf.map_fn(lambda row: row + 1.0, x))(nested)
    assert plus.to_list() == [[[2.0, 3.0], [4.0]], [], [[5.0]]]
    sums = tf.function(lambda x: tf.map_fn(tf.reduce_sum, x, fn_output_signature=tf.float32))
    assert sums(nested).numpy().tolist() == [6.0, 0.0, 4.0]
    uniform = tf.ragged.constant([[[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]]], ragged_rank=1)
    doubled = tf.function(lambda x: tf.map_fn(lambda row: row * 2.0, x))(uniform)
    assert doubled.to_list() == [[[2.0, 4.0]], [[6.0, 8.0], [10.0, 12.0]]]
    lengths = tf.function(lambda x: tf.map_fn(
        tf.strings.length, x, fn_output_signature=tf.RaggedTensorSpec([None], tf.int32, 0)))
    assert lengths(tf.ragged.constant([["a"], ["bb", "c"]])).to_list() == [[1], [2, 1]]
    empty = tf.function(lambda x: tf.map_fn(lambda row: row * 2, x))(rt[:0])
    assert empty.to_list() == [] and empty.dtype == tf.int64


def test_ragged_cross_keeps_tfs_input_order_and_splits_dtype():
    a = tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32)
    sparse = tf.sparse.from_dense(tf.constant([["x", ""], ["", "y"]]))
    crossed = tf.ragged.cross([a, sparse])
    assert crossed.to_list() == [[b"1_X_x", b"2_X_x"], [b"3_X_y"]]
    assert crossed.row_splits.dtype == tf.int32
    hashed = tf.ragged.cross_hashed([a, tf.constant([[5], [6]], tf.int32)], 7,
                                    hash_key=2**64 - 5)
    assert hashed.to_list() == [[4, 4], [3]]
    assert tf.ragged.cross([]).to_list() == []
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"only supports inputs with rank=2\. \[Op:RaggedCross\]"):
        tf.ragged.cross([a, tf.constant([1, 2])])
    with pytest.raises(ValueError, match=r"Unexpected dtype for inputs\[1\]: "
                                         r"<dtype: 'float32'>"):
        tf.ragged.cross([a, tf.constant([[1.0], [2.0]])])


def test_raw_ragged_bincount_and_count_sparse_output():
    raw = tf.raw_ops
    counts = raw.RaggedBincount(splits=[0, 3, 3, 4], values=[1, 2, 2, 3], size=5,
                                weights=[1, 2, 3, 4], binary_output=False)
    assert counts.dtype == tf.int32
    assert counts.numpy().tolist() == [[0, 1, 5, 0, 0], [0] * 5, [0, 0, 0, 4, 0]]
    present = raw.RaggedBincount(splits=[0, 3, 3, 4], values=[1, 2, 2, 7], size=5,
                                 weights=tf.constant([], tf.float32), binary_output=True)
    assert present.numpy().tolist() == [[0, 1, 1, 0, 0], [0] * 5, [0] * 5]
    assert raw.RaggedBincount(splits=[0], values=tf.constant([], tf.int32), size=5,
                              weights=[], binary_output=False).shape == [0, 5]
    for kwargs, message in (
            (dict(values=[1, -2, 2, 3], size=5), "Input must be non-negative"),
            (dict(values=[1, 2, 2, 3], size=-1), r"size \(-1\) must be non-negative"),
            (dict(values=[1, 2, 2], size=5), "Splits must end with the number of values, "
                                            "got 4 instead of 3")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            raw.RaggedBincount(splits=[0, 3, 3, 4], weights=[], binary_output=False, **kwargs)
    out = raw.RaggedCountSparseOutput(splits=[0, 3, 3, 4], values=[2, 1, 2, 0],
                                      weights=[0, 2, 0, 4], binary_output=False)
    assert [out.output_indices.numpy().tolist(), out.output_values.numpy().tolist(),
            out.output_dense_shape.numpy().tolist()] == [[[0, 1], [0, 2], [2, 0]], [2, 0, 4],
                                                        [3, 3]]
    w = tf.constant([], tf.int32)
    capped = raw.RaggedCountSparseOutput(splits=[0, 3, 3, 4], values=[5, 6, 6, 7], weights=w,
                                         binary_output=False, maxlength=3)
    assert capped.output_values.shape == [0] and \
        capped.output_dense_shape.numpy().tolist() == [3, 3]
    assert raw.RaggedCountSparseOutput(splits=[0, 0], values=tf.constant([], tf.int32),
                                       weights=tf.constant([], tf.int64), binary_output=False
                                       ).output_dense_shape.numpy().tolist() == [1, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Splits must start with 0, not "
                                                             "with 1"):
        raw.RaggedCountSparseOutput(splits=[1, 3, 3, 4], values=[2, 1, 2, 0], weights=w,
                                    binary_output=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Weights and values must have "
                                                             r"the same shape. Weight shape: "
                                                             r"\[2\]; values shape: \[4\]"):
        raw.RaggedCountSparseOutput(splits=[0, 3, 3, 4], values=[2, 1, 2, 0], weights=[1, 2],
                                    binary_output=False)


def test_raw_ragged_variant_round_trips():
    raw = tf.raw_ops
    rows = raw.RaggedTensorToVariant(rt_nested_splits=[[0, 2, 2, 3]],
                                     rt_dense_values=[1.0, 2.0, 3.0], batched_input=True)
    assert rows.dtype == tf.variant and rows.shape == [3]
    back = raw.RaggedTensorFromVariant(encoded_ragged=rows, input_ragged_rank=-1,
                                       output_ragged_rank=1, Tvalues=tf.float32)
    assert back.output_nested_splits[0].numpy().tolist() == [0, 2, 2, 3]
    assert back.output_dense_values.numpy().tolist() == [1.0, 2.0, 3.0]
    grid = raw.RaggedTensorFromVariant(encoded_ragged=tf.reshape(rows, [3, 1]),
                                       input_ragged_rank=0, output_ragged_rank=2,
                                       Tvalues=tf.float32)
    assert [s.numpy().tolist() for s in grid.output_nested_splits] == [[0, 1, 2, 3],
                                                                       [0, 2, 2, 3]]
    whole = raw.RaggedTensorToVariant(
        rt_nested_splits=[tf.constant([0, 2, 3], tf.int64), tf.constant([0, 1, 1, 3], tf.int64)],
        rt_dense_values=[1.0, 2.0, 3.0], batched_input=False)
    assert whole.shape == []
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected values Tensor dtype: "
                                                             "int32, found: float"):
        raw.RaggedTensorFromVariant(encoded_ragged=rows, input_ragged_rank=0,
                                    output_ragged_rank=1, Tvalues=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"has ragged_rank=0\.  Expected "
                                                             r"ragged_rank=1\."):
        raw.RaggedTensorFromVariant(encoded_ragged=rows, input_ragged_rank=1,
                                    output_ragged_rank=2, Tvalues=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected row_splits Tensor "
                                                             r"dtype: int32, found: int64"):
        raw.RaggedTensorFromVariant(encoded_ragged=whole, input_ragged_rank=2,
                                    output_ragged_rank=2, Tvalues=tf.float32, Tsplits=tf.int32)


def test_gradients_flow_through_map_fn_over_ragged_rows_in_a_function():
    # (through TF's RaggedTensorToVariant/FromVariant gradients, as TF's values)
    rt = tf.ragged.constant([[1.0, 2.0], [], [3.0]])
    nested = tf.ragged.constant([[[1.0, 2.0], [3.0]], [], [[4.0]]])

    def grad(fn, x):
        @tf.function
        def g(v):
            with tf.GradientTape() as tape:
                tape.watch(v)
                y = fn(x.with_flat_values(v))
                total = tf.reduce_sum(y.flat_values if isinstance(y, tf.RaggedTensor) else y)
            return tape.gradient(total, v)
        return g(x.flat_values).numpy().tolist()
    assert grad(lambda a: tf.map_fn(lambda r: tf.reduce_sum(r * r), a,
                                    fn_output_signature=tf.float32), rt) == [2.0, 4.0, 6.0]
    assert grad(lambda a: tf.map_fn(lambda r: r * 3.0, a), nested) == [3.0] * 4
    assert grad(lambda a: tf.map_fn(lambda r: r[:1] * 5.0, a), rt) == [5.0, 0.0, 5.0]


def test_expand_dims_at_the_front_is_one_uniform_row():
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    front = tf.expand_dims(rt, 0)
    assert front.shape.as_list() == [1, 3, None] and front.ragged_rank == 2
    assert front.uniform_row_length.numpy() == 3 and front.to_list() == [rt.to_list()]
    assert tf.expand_dims(rt, -3).shape.as_list() == [1, 3, None]

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def traced(r):
        assert tf.expand_dims(r, 0).shape.as_list() == [1, None, None]
        return tf.expand_dims(r, 0).flat_values
    assert traced(rt).numpy().tolist() == [3, 1, 2, 5, 4]


def test_function_returns_the_shape_of_a_ragged_tensor():
    shape = tf.function(lambda x: tf.shape(x))
    pair = tf.function(lambda x: (tf.shape(x), tf.shape(x)[0] * 2, tf.shape(x)[:1]))
    rt = tf.ragged.constant([[1, 2], [3]])
    got = shape(rt)
    assert type(got) is type(tf.shape(rt))
    assert repr(got) == "<DynamicRaggedShape lengths=[2, (2, 1)] num_row_partitions=1>"
    assert got[0].numpy() == 2 and got.rank == 2
    whole, rows, first = pair(rt)
    assert repr(whole) == repr(got) and rows.numpy() == 4
    assert repr(first) == "<DynamicRaggedShape lengths=[2] num_row_partitions=0>"
    deeper = tf.ragged.constant([[[1], [2, 3]], [[3]]])
    assert repr(shape(deeper)) == \
        "<DynamicRaggedShape lengths=[2, (2, 1), (1, 2, 1)] num_row_partitions=2>"
    uniform = tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
    assert repr(shape(uniform)) == \
        "<DynamicRaggedShape lengths=[2, (1, 2), 2] num_row_partitions=1>"
    concrete = shape.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int32))
    assert "DynamicRaggedShape.Spec(row_partitions=(RowPartitionSpec(nrows=None, nvals=None, " \
        "uniform_row_length=None, dtype=tf.int32),), static_inner_shape=TensorShape([None]), " \
        "dtype=tf.int32)" in str(concrete)


def test_print_ragged_tensors_inside_structures(capsys):
    import sys
    rt = tf.ragged.constant([[1, 2], [3]])
    st = tf.sparse.SparseTensor([[0, 1]], [5], [2, 2])
    tf.print({"r": rt}, [rt, st], ("s", rt), output_stream=sys.stdout)
    tf.function(lambda r: [tf.print({"r": r, "t": tf.constant(1)}, output_stream=sys.stdout)]
                and None)(rt)
    assert capsys.readouterr().out == (
        "{'r': [[1, 2], [3]]} [[[1, 2], [3]], 'SparseTensor(indices=[[0 1]], values=[5], "
        "shape=[2 2])'] ('s', [[1, 2], [3]])\n{'r': [[1, 2], [3]], 't': 1}\n")


def test_stack_dynamic_partitions_row_splits_follow_the_partitions_dtype():
    data = tf.constant([1, 2, 3, 4])
    for dtype in (tf.int32, tf.int64):
        r = tf.ragged.stack_dynamic_partitions(data, tf.constant([0, 1, 0, 2], dtype), 3)
        assert r.row_splits.dtype == dtype
        assert r.to_list() == [[1, 3], [2], [4]]
    assert tf.ragged.stack_dynamic_partitions(data, [1, 1, 0, 0], 2).row_splits.dtype == \
        tf.int32


def test_row_partition_values_known_while_building_raise_value_errors():
    # TF checks the values it knows while building (always, eagerly) before its assertions
    cases = [
        (lambda: tf.RaggedTensor.from_value_rowids([3, 1, 4], [0, 0, 2], nrows=2),
         "Expected nrows >= value_rowids[-1] + 1; got nrows=2, value_rowids[-1]=2"),
        (lambda: tf.RaggedTensor.from_value_rowids([3, 1, 4], tf.constant([0, 0, 2]),
                                                   nrows=tf.constant(2)),
         "Expected nrows >= value_rowids[-1] + 1; got nrows=2, value_rowids[-1]=2"),
        (lambda: tf.RaggedTensor.from_value_rowids([3, 1, 4], [0, 0, 2], nrows=-1),
         "Expected nrows >= 0; got -1"),
        (lambda: tf.RaggedTensor.from_value_rowids([3, 1, 4], [0, 1]),
         "Shapes (3,) and (2,) are incompatible"),
        (lambda: tf.RaggedTensor.from_value_rowids([3, 1, 4], [[0, 0, 2]]),
         "Shape (1, 3) must have rank 1"),
        (lambda: tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5], 2),
         "uniform_row_length=2 times nrows=2 must equal nvals=5"),
        (lambda: tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 2, nrows=2),
         "uniform_row_length=2 times nrows=2 must equal nvals=6"),
        (lambda: tf.RaggedTensor.from_uniform_row_length([1, 2], -1),
         "uniform_row_length must be >= 0."),
        (lambda: tf.RaggedTensor.from_uniform_row_length([1, 2], [1]),
         "Shape (1,) must have rank 0"),
        (lambda: tf.RaggedTensor.from_row_splits([3, 1, 4], [0., 3.]),
         "row_splits must have dtype int32 or int64"),
        (lambda: tf.RaggedTensor.from_row_splits([3, 1, 4], tf.constant([0, 3], tf.int16)),
         "row_splits must have dtype int32 or int64"),
        (lambda: tf.RaggedTensor.from_row_lengths([3, 1, 4], [3.]),
         "row_lengths must have dtype int32 or int64"),
        (lambda: tf.RaggedTensor.from_uniform_row_length([3, 1, 4], 1.),
         "UniformRowLength must have dtype int32 or int64"),
        (lambda: tf.ragged.constant([[1]], row_splits_dtype=tf.float32),
         "row_splits must have dtype int32 or int64"),
    ]
    for make, message in cases:
        with pytest.raises(ValueError) as info:
            make()
        assert str(info.value) == message
    # a negative first id is TF's assertion on it alone; a NumPy array of floats is cast
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.RaggedTensor.from_value_rowids([3, 1, 4], [-1, 0, 2], nrows=3)
    assert str(info.value) == (
        "Arguments to from_value_rowids do not form a valid RowPartition.  \nCondition x >= 0 "
        "did not hold element-wise:\nx (shape=(1,) dtype=int64) = \n['-1']")
    rt = tf.RaggedTensor.from_row_splits([3, 1, 4], np.array([0., 3.], np.float32))
    assert rt.to_list() == [[3, 1, 4]]
    rt = tf.RaggedTensor.from_uniform_row_length(tf.zeros([0], tf.int32), 0, nrows=3)
    assert rt.shape.as_list() == [3, 0]


def test_gather_with_batch_dims_and_no_axis_gathers_along_batch_dims():
    # tf.gather's axis defaults to batch_dims, for ragged params too
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    got = tf.gather(digits, tf.ragged.constant([[0], [], [1, 2], [0], []]), batch_dims=1)
    assert got.to_list() == [[3], [], [9, 2], [6], []]
    got = tf.gather(digits[:1], [[0, 3]], batch_dims=1)
    assert got.numpy().tolist() == [[3, 1]]


def test_to_tensor_shape_checks_are_tfs():
    rt = tf.ragged.constant([[1., 2.], [], [3.]])
    with pytest.raises(ValueError, match="^Dimension -1 must be >= 0$"):
        rt.to_tensor(shape=[-1, 3])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        rt.to_tensor(shape=[2])
    assert str(info.value).startswith(
        "{{function_node __wrapped__RaggedTensorToTensor_num_row_partition_tensors_1_device_")
    assert "} rt_input.shape and shape=[2] are incompatible: rt_input.rank = 2 but " \
           "shape.rank = 1 [Op:RaggedTensorToTensor]" in str(info.value)
    assert rt.to_tensor(shape=[None, 1]).numpy().tolist() == [[1.], [0.], [3.]]


def test_ragged_row_mask_newaxis_and_map_flat_values_checks():
    rt = tf.ragged.constant([[1., 2.], [], [3.]])
    with pytest.raises(ValueError, match=r"^Shapes \(3,\) and \(1,\) are incompatible$"):
        tf.ragged.boolean_mask(rt, [True])
    assert rt[tf.newaxis].shape.as_list() == [1, 3, None]
    assert rt[tf.newaxis].uniform_row_length.numpy() == 3
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="partitions have incompatible row_splits"):
        tf.ragged.map_flat_values(tf.add, rt, tf.ragged.constant([[1.], [2.], [3.]]))
    with pytest.raises(ValueError) as info:
        tf.ragged.map_flat_values(lambda x: x[:1], rt)
    assert str(info.value) == (
        "tf.ragged.map_flat_values requires that the output of `op` have the same "
        "outer-dimension size as flat_values of any ragged inputs. (output shape: (1,); "
        "expected outer dimension size: 3)")


def test_from_tensor_takes_its_ragged_rank_from_nested_lengths():
    t = [[[1, 0], [2, 3]]]
    for lengths in (([2], [1, 2]), [[2], [1, 2]]):
        rt = tf.RaggedTensor.from_tensor(t, lengths=lengths)
        assert rt.ragged_rank == 2 and rt.to_list() == [[[1], [2, 3]]]
    cases = [
        (lambda: tf.RaggedTensor.from_tensor([1, 2]), ValueError,
         "The rank of a RaggedTensor must be greater than 1, i.e., a list of scalars won't "
         "have ragged dimensions. Received argument `tensor` with rank 1."),
        (lambda: tf.RaggedTensor.from_tensor([[1, 2]], ragged_rank=2), ValueError,
         "Shape (1, 2) must have rank at least 3"),
        (lambda: tf.RaggedTensor.from_tensor(t, ragged_rank=0), ValueError,
         "Argument `ragged_rank` must be greater than 0. Received 0."),
        (lambda: tf.RaggedTensor.from_tensor(t, ragged_rank=1.0), TypeError,
         "Argument `ragged_rank` must be an int. Received 1.0."),
        (lambda: tf.RaggedTensor.from_tensor([t], lengths=([1], [2], [1, 2]), ragged_rank=2),
         ValueError, "If Argument `lengths` is a tuple of row_lengths, argument `ragged_rank` "
                     "must be len(lengths): 3. Received ragged_rank: 2."),
    ]
    for make, cls, message in cases:
        with pytest.raises(cls) as info:
            make()
        assert str(info.value) == message


def test_flat_values_of_other_partitions_are_refused_as_in_tf():
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[1], [2]])
    c = tf.ragged.constant([[1], [2, 3]])
    for combine in (lambda x, y: tf.ragged.map_flat_values(tf.add, x, y),
                    lambda x, y: tf.strings.join([tf.strings.as_string(x),
                                                  tf.strings.as_string(y)])):
        with pytest.raises(ValueError, match=r"^Input RaggedTensors' flat_values must all have "
                                             r"the same outer-dimension size\.  Got sizes: "
                                             r"\{2, 3\}$"):
            combine(a, b)
        with pytest.raises(tf.errors.InvalidArgumentError, match="^RowPartition._merge_"
                           "precomputed_encodings: partitions have incompatible row_splits"):
            combine(a, c)
    assert tf.strings.join([tf.ragged.constant([["a"], ["b", "c"]]), "!"]).to_list() == [
        [b"a!"], [b"b!", b"c!"]]


def test_from_sparse_error_is_tfs_assert_showing_the_indices():
    st = tf.sparse.from_dense([[1, 0, 2], [0, 0, 3]])
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.RaggedTensor.from_sparse(st)
    assert str(e.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                            "Summarized data: b'SparseTensor is not right-ragged'\n"
                            "b'SparseTensor.indices ='\n0, 0, 0, ...")


def test_a_dense_value_per_row_broadcasts_over_deeper_ragged_tensors():
    r3 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    per_row = tf.constant([[[1]], [[2]], [[3]]])
    assert (r3 * per_row).to_list() == [[[1, 2], [3]], [], [[12, 15, 18]]]
    assert tf.function(lambda a, b: a * b)(r3, per_row).to_list() == \
        [[[1, 2], [3]], [], [[12, 15, 18]]]
    r4 = tf.ragged.constant([[[[1, 2]], [[3, 4], [5, 6]]], [[[7, 8]]]], ragged_rank=2)
    assert (r4 + tf.constant([[[[1, 2]]], [[[10, 20]]]])).to_list() == \
        [[[[2, 4]], [[4, 6], [6, 8]]], [[[17, 28]]]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        r3 + tf.ones([2, 1, 1], tf.int32)


def test_slices_of_negative_step_inside_ragged_rows():
    rt = tf.ragged.constant([[1, 2, 3, 4, 5], [], [6, 7], [8]])
    assert rt[:, ::-1].to_list() == [[5, 4, 3, 2, 1], [], [7, 6], [8]]
    assert rt[:, 3::-2].to_list() == [[4, 2], [], [7], [8]]
    assert rt[:, -2::-1].to_list() == [[4, 3, 2, 1], [], [6], []]
    assert rt[:, 4:0:-2].to_list() == [[5, 3], [], [7], []]
    assert rt[:, 10:-10:-1].to_list() == [[5, 4, 3, 2, 1], [], [7, 6], [8]]
    assert rt[:, 1:3:-1].to_list() == [[], [], [], []]
    r3 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert r3[:, ::-1].to_list() == [[[3], [1, 2]], [], [[4, 5, 6]]]
    assert r3[:, :, ::-1].to_list() == [[[2, 1], [3]], [], [[6, 5, 4]]]

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def f(start):
        return rt[:, start::-1]
    assert f(tf.constant(1)).to_list() == [[2, 1], [], [7, 6], [8]]
    assert f(tf.constant(-1)).to_list() == [[5, 4, 3, 2, 1], [], [7, 6], [8]]


def test_boolean_mask_of_fewer_ragged_dimensions_than_the_data():
    r3 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    mask = tf.ragged.constant([[True, False], [], [True]])
    assert tf.ragged.boolean_mask(r3, mask).to_list() == [[[1, 2]], [], [[4, 5, 6]]]
    assert tf.function(tf.ragged.boolean_mask)(r3, mask).to_list() == [[[1, 2]], [], [[4, 5, 6]]]
    none = tf.ragged.constant([[False, False], [], [False]])
    assert tf.ragged.boolean_mask(r3, none).to_list() == [[], [], []]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.boolean_mask(r3, tf.ragged.constant([[True], [], [True]]))


def test_stack_dynamic_partitions_of_ragged_rows():
    rt = tf.ragged.constant([[1.0, 2.0, 3.0], [], [4.0, 5.0]])
    out = tf.ragged.stack_dynamic_partitions(rt, [0, 1, 0], 2)
    assert out.to_list() == [[[1.0, 2.0, 3.0], [4.0, 5.0]], [[]]]
    assert tf.function(tf.ragged.stack_dynamic_partitions)(
        rt, tf.constant([2, 2, 0]), 3).to_list() == [[[4.0, 5.0]], [], [[1.0, 2.0, 3.0], []]]


def test_newaxis_inside_ragged_rows():
    rt = tf.ragged.constant([[1.0, 2.0, 3.0], [], [4.0, 5.0]])
    out = rt[:, tf.newaxis]
    assert out.shape.as_list() == [3, 1, None]
    assert out.to_list() == [[[1.0, 2.0, 3.0]], [[]], [[4.0, 5.0]]]
    out = rt[:, tf.newaxis, 1:]
    assert out.shape.as_list() == [3, 1, None]
    assert out.to_list() == [[[2.0, 3.0]], [[]], [[5.0]]]
    assert rt[tf.newaxis, :, tf.newaxis].shape.as_list() == [1, 3, 1, None]
    assert rt[:, :, tf.newaxis].to_list() == [[[1.0], [2.0], [3.0]], [], [[4.0], [5.0]]]
    r3 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert r3[:, tf.newaxis].to_list() == [[[[1, 2], [3]]], [[]], [[[4, 5, 6]]]]
    assert tf.function(lambda x: x[:, tf.newaxis])(rt).to_list() == \
        [[[1.0, 2.0, 3.0]], [[]], [[4.0, 5.0]]]


def test_ragged_constant_checks_ranks_and_inner_shapes_as_tf():
    # a pylist that fits no ragged dimension is a tensor of `inner_shape`, as TF's
    with pytest.raises(TypeError, match="Eager execution of tf.constant with unsupported shape"):
        tf.ragged.constant([[1, 2], [3, 4]], inner_shape=(2,))
    with pytest.raises(TypeError, match="Eager execution of tf.constant with unsupported shape"):
        tf.ragged.constant([[], []], inner_shape=(3,))
    with pytest.raises(ValueError, match=r"incompatible with ragged_rank=1 and "
                                         r"dim\(inner_shape\)=1"):
        tf.ragged.constant([[1, 2], [3, 4]], inner_shape=(2,), ragged_rank=1)
    with pytest.raises(ValueError, match="pylist has scalar values depth 2, but ragged_rank=2 "
                                         "requires scalar value depth greater than 2"):
        tf.ragged.constant([[1, 2], [3]], ragged_rank=2)
    with pytest.raises(ValueError, match="empty list nesting is greater than scalar value "
                                         "nesting"):
        tf.ragged.constant([[[]], [1]])
    assert tf.ragged.constant([[[1], [2]], [[3]]], inner_shape=(1,)).shape.as_list() == \
        [2, None, 1]


def test_merge_dims_names_an_axis_out_of_bounds():
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    with pytest.raises(ValueError, match=r"^inner_axis=3 out of bounds: expected "
                                         r"-3<=inner_axis<3$"):
        rt.merge_dims(0, 3)
    with pytest.raises(ValueError, match=r"^outer_axis=-4 out of bounds"):
        rt.merge_dims(-4, 1)
    with pytest.raises(ValueError, match=r"^Expected outer_axis \(1\) to be less than or equal "
                                         r"to inner_axis \(0\)\.$"):
        rt.merge_dims(1, -3)


def test_ragged_stack_of_dense_tensors_keeps_tfs_structure():
    # along axis 0, each becomes a ragged tensor first: other numbers of rows and inner
    # shapes stack, and every dimension below the new one is ragged, as in TF
    r = tf.ragged.stack([tf.zeros((4, 6, 3)), tf.zeros((5, 3, 3))])
    assert r.shape.as_list() == [2, None, None, 3] and r.ragged_rank == 2
    assert [s.numpy().tolist() for s in r.nested_row_splits][0] == [0, 4, 9]
    r = tf.ragged.stack([tf.zeros((2, 3)), tf.ones((1, 3))])
    assert r.shape.as_list() == [2, None, None] and r.ragged_rank == 2
    assert r.to_list() == [[[0.0] * 3] * 2, [[1.0] * 3]]
    # along the innermost dimensions (and of scalars) a tensor, as tf.stack gives
    t = tf.ragged.stack([tf.zeros((2, 3)), tf.ones((2, 3))], axis=1)
    assert not isinstance(t, tf.RaggedTensor) and t.shape == (2, 2, 3)
    assert tf.ragged.stack([tf.constant(1), tf.constant(3)]).numpy().tolist() == [1, 3]
    assert tf.ragged.stack([tf.constant([1, 2]), tf.constant([3])]).ragged_rank == 1
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.stack([tf.zeros((2, 3)), tf.ones((1, 3))], axis=1)


def test_row_lengths_of_a_negative_axis_counts_from_the_last():
    rt = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert rt.row_lengths(axis=-1).to_list() == [[2, 1], [], [3]]
    assert rt.row_lengths(axis=-2).numpy().tolist() == [2, 0, 1]
    assert int(rt.row_lengths(axis=-3)) == 3
    for axis in (3, -4):
        with pytest.raises(ValueError, match="out of bounds"):
            rt.row_lengths(axis=axis)


def test_with_values_of_another_length_raises():
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])
    with pytest.raises(ValueError, match=r"Shapes \(6,\) and \(2,\) are incompatible"):
        rt.with_values([1, 2])
    with pytest.raises(ValueError, match="rank at least 1"):
        rt.with_values(5)
    nested = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    with pytest.raises(ValueError, match=r"Shapes \(6,\) and \(7,\)"):
        nested.with_flat_values(tf.zeros([7]))
    assert rt.with_values(tf.zeros([6, 2])).shape.as_list() == [4, None, 2]


def test_a_variable_indexes_rows_as_its_value():
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])
    v = tf.Variable(2)
    assert rt[v].numpy().tolist() == [4, 5]
    assert rt[tf.Variable(-1)].numpy().tolist() == [6]
    assert int(rt[v, 1]) == 5
    assert tf.function(lambda: rt[v])().numpy().tolist() == [4, 5]


def test_tile_repeats_every_ragged_dimension():
    rt = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    assert tf.tile(rt, [2, 1, 2]).to_list() == [
        [[1, 2, 1, 2], [3, 3]], [], [[4, 5, 6, 4, 5, 6]],
        [[1, 2, 1, 2], [3, 3]], [], [[4, 5, 6, 4, 5, 6]]]
    assert tf.tile(rt, [1, 2, 1]).to_list() == [
        [[1, 2], [3], [1, 2], [3]], [], [[4, 5, 6], [4, 5, 6]]]
    deep = tf.ragged.constant([[[[1], [2]], [[3]]], [[[4, 5]]]])
    assert tf.tile(deep, [1, 1, 2, 2]).to_list() == [
        [[[1, 1], [2, 2], [1, 1], [2, 2]], [[3, 3], [3, 3]]], [[[4, 5, 4, 5], [4, 5, 4, 5]]]]
    f = tf.function(lambda x: tf.tile(x, [1, 1, 3]),
                    input_signature=[tf.RaggedTensorSpec([None, None, None], tf.int32)])
    assert f(rt).to_list() == [[[1, 2, 1, 2, 1, 2], [3, 3, 3]], [], [[4, 5, 6] * 3]]


def test_matmul_of_ragged_batches_gives_ragged_columns_without_padding():
    a = tf.ragged.constant([[[1., 2.]], [[3., 4.], [5., 6.]]], ragged_rank=1)
    assert tf.matmul(a, a, transpose_b=True).to_list() == [[[5.]], [[25., 39.], [39., 61.]]]
    b = tf.ragged.constant([[[1.], [2.]], [[1., 2.], [3., 4.]]])
    assert tf.matmul(a, b).to_list() == [[[5.]], [[15., 22.], [23., 34.]]]
    with pytest.raises(ValueError, match="`a` and `b` must have the same rank"):
        tf.matmul(a, tf.ones([2, 3]))
    x = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(x, [1, 2])
        loss = tf.reduce_sum(tf.matmul(rt, rt, transpose_b=True) ** 2)
    np.testing.assert_allclose(tf.convert_to_tensor(tape.gradient(loss, x)).numpy(),
                               [[20., 40.], [1080., 1336.], [1688., 2088.]])


def test_reduce_mean_of_small_integers_is_float32():
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5]])
    for dtype, want in ((tf.int8, tf.float32), (tf.uint16, tf.float32), (tf.int32, tf.float64),
                        (tf.int64, tf.float64), (tf.float16, tf.float16)):
        mean = tf.reduce_mean(tf.cast(rt, dtype), axis=1)
        assert mean.dtype == want
        np.testing.assert_array_equal(mean.numpy(), [2., np.nan, 4.5])


def test_concat_and_stack_of_different_ragged_ranks():
    deep = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    uniform = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert tf.concat([uniform, deep[:2]], axis=1).to_list() == [
        [[1, 2], [3, 4], [1, 2], [3]], [[5, 6]]]
    assert tf.concat([deep, uniform], axis=0).to_list() == [
        [[1, 2], [3]], [], [[4, 5, 6]], [[1, 2], [3, 4]], [[5, 6]]]
    assert tf.stack([uniform, deep[:2]], axis=1).to_list() == [
        [[[1, 2], [3, 4]], [[1, 2], [3]]], [[[5, 6]], []]]


def test_numpy_scalar_operators_give_ragged_tensors():
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])
    for result in (np.int32(2) + rt, np.int32(2) * rt - rt):
        assert isinstance(result, tf.RaggedTensor)
    assert (np.int32(2) + rt).to_list() == [[3, 4, 5], [], [6, 7], [8]]
    assert (np.float32(2.5) - tf.cast(rt, tf.float32)).to_list()[0] == [1.5, 0.5, -0.5]


def test_elementwise_ops_broadcast_an_expanded_ragged_dimension():
    words = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    weights = tf.ragged.constant([[1, 2], [], [3]])
    assert (words * tf.expand_dims(weights, -1)).to_list() == [[[1, 2], [6]], [], [[12, 15, 18]]]
    assert (tf.expand_dims(weights, -1) - words).to_list() == [[[0, -1], [-1]], [],
                                                               [[-1, -2, -3]]]
    assert tf.where(words > 2, words, tf.expand_dims(weights, -1)).to_list() == [
        [[1, 1], [3]], [], [[4, 5, 6]]]
    f = tf.function(lambda x, y: x * tf.expand_dims(y, -1), input_signature=[
        tf.RaggedTensorSpec([None, None, None], tf.int32), tf.RaggedTensorSpec([None, None],
                                                                              tf.int32)])
    assert f(words, weights).to_list() == [[[1, 2], [6]], [], [[12, 15, 18]]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        words + tf.expand_dims(tf.ragged.constant([[1, 2, 3], [], [3]]), -1)
    x = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as tape:
        w = tf.RaggedTensor.from_row_lengths(x, [2, 0, 1])
        y = tf.reduce_sum(tf.cast(words, tf.float32) * tf.expand_dims(w, -1))
    assert tf.convert_to_tensor(tape.gradient(y, x)).numpy().tolist() == [3., 3., 15.]


def test_map_flat_values_errors_are_tfs():
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])
    with pytest.raises(ValueError, match=r"same outer-dimension size .*output shape: \(\)"):
        tf.ragged.map_flat_values(tf.reduce_sum, rt)
    with pytest.raises(ValueError, match="same ragged_rank"):
        tf.ragged.map_flat_values(tf.add, tf.ragged.constant([[[1, 2], [3]], [], [[4]]]), rt)


def test_equality_operators_are_false_for_values_that_do_not_broadcast():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert (rt == rt).to_list() == [[True, True], [True]]
    assert (rt == tf.ragged.constant([[1, 2], [3, 4]])) is False
    assert (rt != tf.ragged.constant([[1, 2], [3, 4]])) is True
    dense = tf.constant([[1, 2], [3, 4]])
    assert (rt == dense) is False and (dense == rt) is False and (dense != rt) is True
    assert (rt == [[1, 2], [3]]) is False and (rt == "a") is False
    assert (rt == None) is False and (rt != None) is True  # noqa: E711
    square = tf.ragged.constant([[1, 2], [3, 4]])
    assert (square == dense).to_list() == [[True, True], [True, True]]
    assert (dense == square).to_list() == [[True, True], [True, True]]
    # variables (composite too) still compare elementwise with tensors and each other
    v, w = tf.Variable([[1, 2], [3, 4]]), tf.Variable([[1, 0], [3, 4]])
    assert (v == w).numpy().tolist() == [[True, False], [True, True]]
    assert (dense != v).numpy().tolist() == [[False, False], [False, False]]


def test_a_dense_operand_of_the_rows_lengths_broadcasts():
    square = tf.ragged.constant([[1, 2], [3, 4]])
    assert (square + tf.constant([[10, 20], [30, 40]])).to_list() == [[11, 22], [33, 44]]
    assert tf.maximum(square, tf.constant([[2, 2], [2, 2]])).to_list() == [[2, 2], [3, 4]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.constant([[1, 2], [3]]) + tf.constant([[10, 20], [30, 40]])


def test_dynamic_ragged_shape_from_lengths():
    shape_type = tf.experimental.DynamicRaggedShape
    shape = shape_type.from_lengths([2, (2, 1), 3])
    assert repr(shape) == "<DynamicRaggedShape lengths=[2, (2, 1), 3] num_row_partitions=1>"
    assert shape.rank == 3 and int(shape[0]) == 2 and int(shape[2]) == 3
    assert tf.zeros(shape).to_list() == [[[0.] * 3] * 2, [[0.] * 3]]
    inner_uniform = shape_type.from_lengths([2, 2, (1, 2, 0, 3)], dtype=tf.int32)
    assert repr(inner_uniform) == ("<DynamicRaggedShape lengths=[2, 2, (1, 2, 0, 3)] "
                                   "num_row_partitions=2>")
    ones = tf.ones(inner_uniform, tf.int32)
    assert ones.to_list() == [[[1], [1, 1]], [[], [1, 1, 1]]]
    assert ones.row_splits.dtype == tf.int32 and ones.shape.as_list() == [2, 2, None]
    assert tf.broadcast_to(tf.constant([[1], [2]]), shape_type.from_lengths(
        [2, (2, 1)])).to_list() == [[1, 1], [2]]
    with pytest.raises(ValueError, match="Shape not consistent"):
        shape_type.from_lengths([2, (2, 1, 5)])
