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
