"""keras.preprocessing.text and .sequence (legacy, plain Python), compared with tf_keras 2.21."""
import json
import random

import numpy as np
import pytest

from eagerflow import keras

T = keras.preprocessing.text
S = keras.preprocessing.sequence
TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "Cat and dog, cat and DOG", ""]


def test_text_to_word_sequence_and_hashing():
    assert T.text_to_word_sequence(TEXTS[0]) == ["the", "cat", "sat", "on", "the", "mat"]
    assert T.text_to_word_sequence("a-b c", filters="-", lower=False) == ["a", "b", "c"]
    hashed = T.hashing_trick("the cat the", 10, hash_function="md5")
    assert hashed[0] == hashed[2] and all(1 <= h <= 9 for h in hashed)
    assert len(T.one_hot("a b c", 5)) == 3


def test_tokenizer_vocabulary_and_sequences():
    tokenizer = T.Tokenizer(num_words=6, oov_token="<OOV>")
    tokenizer.fit_on_texts(TEXTS)
    assert tokenizer.word_index == {"<OOV>": 1, "the": 2, "cat": 3, "dog": 4, "and": 5,
                                    "sat": 6, "on": 7, "mat": 8, "ate": 9, "my": 10,
                                    "homework": 11}
    assert tokenizer.document_count == 4 and tokenizer.word_docs["cat"] == 2
    assert tokenizer.texts_to_sequences(TEXTS + ["unknown cat"]) == [
        [2, 3, 1, 1, 2, 1], [2, 4, 1, 1, 1], [3, 5, 4, 3, 5, 4], [], [1, 3]]
    assert tokenizer.sequences_to_texts([[1, 2, 3, 9], [5, 6, 7]]) == [
        "<OOV> the cat <OOV>", "and <OOV> <OOV>"]
    matrices = {mode: tokenizer.texts_to_matrix(TEXTS[:3], mode=mode)
                for mode in ("binary", "count", "freq", "tfidf")}
    assert matrices["count"].tolist() == [[0, 3, 2, 1, 0, 0], [0, 3, 1, 0, 1, 0],
                                          [0, 0, 0, 2, 2, 2]]
    np.testing.assert_allclose(matrices["freq"][1], [0, 0.6, 0.2, 0, 0.2, 0])
    np.testing.assert_allclose(matrices["tfidf"][2], [0, 0, 0, 1.4346, 1.4346, 1.8601],
                               atol=1e-4)
    assert matrices["binary"][0].tolist() == [0, 1, 1, 1, 0, 0]


def test_tokenizer_levels_json_and_errors():
    chars = T.Tokenizer(char_level=True)
    chars.fit_on_texts(["abca", "bb"])
    assert chars.word_index == {"b": 1, "a": 2, "c": 3}
    assert chars.texts_to_sequences(["abz"]) == [[2, 1]]
    lists = T.Tokenizer()
    lists.fit_on_texts([["Hello", "World"], ["hello"]])
    assert lists.word_index == {"hello": 1, "world": 2}
    lists.fit_on_sequences([[1, 2], [1]])
    assert dict(lists.index_docs) == {1: 4, 2: 2} and lists.document_count == 4
    tokenizer = T.Tokenizer(num_words=6, oov_token="<OOV>")
    tokenizer.fit_on_texts(TEXTS)
    restored = T.tokenizer_from_json(tokenizer.to_json())
    assert restored.word_index == tokenizer.word_index and restored.num_words == 6
    assert restored.texts_to_sequences(TEXTS[:2]) == [[2, 3, 1, 1, 2, 1], [2, 4, 1, 1, 1]]
    assert json.loads(tokenizer.get_config()["index_word"])["1"] == "<OOV>"
    with pytest.raises(TypeError, match="Unrecognized keyword arguments"):
        T.Tokenizer(foo=1)
    with pytest.raises(ValueError, match="Specify a dimension"):
        T.Tokenizer().texts_to_matrix(["a"])
    with pytest.raises(ValueError, match="Unknown vectorization mode"):
        tokenizer.sequences_to_matrix([[1]], mode="bad")
    with pytest.raises(AttributeError):  # JSON without a "config" entry
        T.tokenizer_from_json("{}")


def test_skipgrams_follow_pythons_random():
    np.testing.assert_allclose(S.make_sampling_table(6),
                               [0.003152, 0.003152, 0.005476, 0.007416, 0.009128, 0.010684],
                               atol=1e-6)
    random.seed(1)
    couples, labels = S.skipgrams([1, 2, 3, 0, 4, 5], 6, window_size=2, seed=3)
    assert couples[:6] == [[4, 5], [2, 3], [3, 4], [3, 2], [2, 4], [1, 5]]
    assert labels == [1, 1, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1]
    random.seed(2)
    couples, labels = S.skipgrams([3, 1, 4, 1, 5], 8, window_size=1, negative_samples=2,
                                  categorical=True, shuffle=False,
                                  sampling_table=S.make_sampling_table(8, 0.5))
    assert couples[6:10] == [[4, 5], [3, 1], [1, 5], [1, 6]]
    assert labels[:7] == [[0, 1]] * 6 + [[1, 0]] and len(labels) == 18


def test_timeseries_generator():
    data, targets = np.arange(20).reshape(10, 2), np.arange(10) * 10
    gen = S.TimeseriesGenerator(data, targets, length=3, stride=2, batch_size=2)
    assert len(gen) == 2
    x, y = gen[1]
    assert x.tolist() == [[[8, 9], [10, 11], [12, 13]], [[12, 13], [14, 15], [16, 17]]]
    assert y.tolist() == [70, 90]
    gen = S.TimeseriesGenerator(data, targets, length=4, sampling_rate=2, start_index=1,
                                end_index=8, reverse=True, batch_size=3)
    assert gen[0][0].tolist() == [[[6, 7], [2, 3]], [[8, 9], [4, 5]], [[10, 11], [6, 7]]]
    assert gen[1][1].tolist() == [80] and gen.get_config()["start_index"] == 5
    with pytest.raises(ValueError, match="Data and targets have to be of same length"):
        S.TimeseriesGenerator(data, targets[:3], 2)
    with pytest.raises(ValueError, match="is disallowed"):
        S.TimeseriesGenerator(data, targets, 12)
    model = keras.Sequential([keras.Input((3, 2)), keras.layers.Flatten(), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    history = model.fit(S.TimeseriesGenerator(data.astype("float32"), targets.astype("float32"),
                                              length=3, batch_size=2), epochs=1, verbose=0)
    assert history.params["steps"] == 4
