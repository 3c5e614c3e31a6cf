"""Feature-column cases shared by the TF recording (data/make_feature_column_data.py) and
the tests, built from the `tf.feature_column` module given (TF's or eagerflow's)."""


def vocabulary_file_columns(tf, fc, vpath, ipath, initializer):
    """``[(name, column)]``: columns over the vocabulary files `vpath` (strings) and `ipath`
    (int64 ids), the embedding one starting at `initializer`."""
    vf = fc.categorical_column_with_vocabulary_file("thal", vpath)
    return [
        ("vf", fc.indicator_column(vf)),
        ("vf_size2", fc.indicator_column(
            fc.categorical_column_with_vocabulary_file("thal", vpath, 2))),
        ("vf_oov", fc.indicator_column(
            fc.categorical_column_with_vocabulary_file("thal", vpath, num_oov_buckets=4))),
        ("vf_def", fc.indicator_column(
            fc.categorical_column_with_vocabulary_file("thal", vpath, default_value=0))),
        ("vf_int", fc.indicator_column(fc.categorical_column_with_vocabulary_file(
            "vi", ipath, dtype=tf.int64, num_oov_buckets=1))),
        ("vf_emb", fc.embedding_column(vf, 2, initializer=initializer))]


def integer_and_sparse_columns(tf, fc):
    """``[(name, column)]``: columns over integer ids and vocabularies, hashed integers and a
    sparse string input (the features `ai`, `vi`, `id`, `hi` and `s`)."""
    vocab_int = fc.categorical_column_with_vocabulary_list("vi", [10, 20, 30], num_oov_buckets=2)
    sparse_vocab = fc.categorical_column_with_vocabulary_list("s", ["a", "b"])
    return [
        ("int_num", fc.numeric_column("ai", dtype=tf.int64)),
        ("vocab_int", fc.indicator_column(vocab_int)),
        ("vocab_int32", fc.indicator_column(fc.categorical_column_with_vocabulary_list(
            "vi", [10, 20, 30], dtype=tf.int32))),
        ("id_default", fc.indicator_column(fc.categorical_column_with_identity(
            "id", 3, default_value=0))),
        ("hash_int", fc.indicator_column(fc.categorical_column_with_hash_bucket(
            "hi", 10, dtype=tf.int32))),
        ("sparse_vocab", fc.indicator_column(sparse_vocab)),
        ("sparse_cross", fc.indicator_column(fc.crossed_column(["s", vocab_int], 20))),
        ("sparse_emb", fc.embedding_column(sparse_vocab, 2, initializer=tf.ones_initializer()))]
