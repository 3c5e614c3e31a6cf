"""Keras's legacy text preprocessing in plain Python (``tf.keras.preprocessing.text``):
splitting texts into words, hashing words, and the `Tokenizer` vocabulary.

>>> tf.keras.preprocessing.text.text_to_word_sequence("This is a sample sentence.")
['this', 'is', 'a', 'sample', 'sentence']
"""
import collections
import hashlib
import json
import warnings

import numpy as np

from eagerflow._src.backend.api_export import export

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


@export("keras.preprocessing.text.text_to_word_sequence")
def text_to_word_sequence(input_text, filters=_FILTERS, lower=True, split=" "):
    """The words of `input_text`: the characters of `filters` become `split`, which
    separates words; empty words are dropped."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in input_text.split(split) if word]


@export("keras.preprocessing.text.hashing_trick")
def hashing_trick(text, n, hash_function=None, filters=_FILTERS, lower=True, split=" ",
                  analyzer=None):
    """Each word of `text` hashed to an index in [1, n - 1] (`hash_function` a function,
    "md5", or None for Python's `hash`)."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        def hash_function(word):
            return int(hashlib.md5(word.encode()).hexdigest(), 16)
    words = (text_to_word_sequence(text, filters=filters, lower=lower, split=split)
             if analyzer is None else analyzer(text))
    return [hash_function(word) % (n - 1) + 1 for word in words]


@export("keras.preprocessing.text.one_hot")
def one_hot(input_text, n, filters=_FILTERS, lower=True, split=" ", analyzer=None):
    """`hashing_trick` with Python's `hash`."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower,
                         split=split, analyzer=analyzer)


@export("keras.preprocessing.text.Tokenizer")
class Tokenizer:
    """A vocabulary of the words of texts, indexed from 1 by decreasing count (ties in order
    of first appearance; the `oov_token`, if any, is 1); turns texts into index sequences
    (keeping indices below `num_words`) or into matrices."""

    def __init__(self, num_words=None, filters=_FILTERS, lower=True, split=" ",
                 char_level=False, oov_token=None, analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed "
                          "`num_words`.", stacklevel=2)
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words, self.document_count = num_words, document_count
        self.char_level, self.oov_token, self.analyzer = char_level, oov_token, analyzer
        self.index_docs = collections.defaultdict(int)
        self.word_index = {}
        self.index_word = {}

    def _words(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, filters=self.filters, lower=self.lower,
                                     split=self.split)

    def fit_on_texts(self, texts):
        """Counts the words of `texts` (strings, or lists of words) and re-indexes them."""
        for text in texts:
            self.document_count += 1
            words = self._words(text)
            for word in words:
                self.word_counts[word] = self.word_counts.get(word, 0) + 1
            for word in set(words):
                self.word_docs[word] += 1
        by_count = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + \
            [word for word, _ in by_count]
        self.word_index = {word: i for i, word in enumerate(vocabulary, 1)}
        self.index_word = {i: word for word, i in self.word_index.items()}
        for word, count in list(self.word_docs.items()):
            self.index_docs[self.word_index[word]] = count

    def fit_on_sequences(self, sequences):
        """Counts the documents each index of `sequences` appears in (for tf-idf)."""
        self.document_count += len(sequences)
        for sequence in sequences:
            for index in set(sequence):
                self.index_docs[index] += 1

    def texts_to_sequences(self, texts):
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        """Yields each text's word indices (unknown and rare words: the OOV index or none)."""
        oov = self.word_index.get(self.oov_token)
        for text in texts:
            sequence = []
            for word in self._words(text):
                index = self.word_index.get(word)
                if index is not None and not (self.num_words and index >= self.num_words):
                    sequence.append(index)
                elif self.oov_token is not None:
                    sequence.append(oov)
            yield sequence

    def sequences_to_texts(self, sequences):
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        """Yields each sequence's words joined by spaces."""
        oov = self.word_index.get(self.oov_token)
        for sequence in sequences:
            words = []
            for index in sequence:
                word = self.index_word.get(index)
                if word is not None and not (self.num_words and index >= self.num_words):
                    words.append(word)
                elif self.oov_token is not None:
                    words.append(self.index_word[oov])
            yield " ".join(words)

    def texts_to_matrix(self, texts, mode="binary"):
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """A (len(sequences), num_words) matrix: per index, "binary" presence, "count",
        "freq" (count / length) or "tfidf"."""
        if self.num_words:
            num_words = self.num_words
        elif self.word_index:
            num_words = len(self.word_index) + 1
        else:
            raise ValueError("Specify a dimension (`num_words` argument), or fit on some text "
                             "data first.")
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        x = np.zeros((len(sequences), num_words))
        for i, sequence in enumerate(sequences):
            if not sequence:
                continue
            counts = collections.Counter(j for j in sequence if j < num_words)
            for j, count in counts.items():
                if mode == "count":
                    x[i][j] = count
                elif mode == "freq":
                    x[i][j] = count / len(sequence)
                elif mode == "binary":
                    x[i][j] = 1
                elif mode == "tfidf":
                    idf = np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                    x[i][j] = (1 + np.log(count)) * idf
                else:
                    raise ValueError("Unknown vectorization mode:", mode)
        return x

    def get_config(self):
        """The settings, and the vocabulary's tables as JSON strings."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower,
                "split": self.split, "char_level": self.char_level,
                "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts),
                "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs),
                "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs):
        """The tokenizer as JSON, for `tokenizer_from_json`."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)


@export("keras.preprocessing.text.tokenizer_from_json")
def tokenizer_from_json(json_string):
    """The `Tokenizer` that `Tokenizer.to_json` wrote."""
    config = json.loads(json_string).get("config")
    tables = {key: json.loads(config.pop(key)) for key in
              ("word_counts", "word_docs", "index_docs", "index_word", "word_index")}
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = tables["word_counts"]
    tokenizer.word_docs = tables["word_docs"]
    tokenizer.index_docs = {int(k): v for k, v in tables["index_docs"].items()}
    tokenizer.index_word = {int(k): v for k, v in tables["index_word"].items()}
    tokenizer.word_index = tables["word_index"]
    return tokenizer
