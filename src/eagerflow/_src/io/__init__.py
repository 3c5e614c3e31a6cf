"""``tf.io``'s files: TFRecord reading and writing (`tf_record`, with the CRC-32C of
`crc32c`) and file system access (`gfile`). Built on the ops layer: the parsing and
file ops that run inside graphs are registered ops in ``ops/parsing_ops.py`` and
``ops/io_ops.py``, the Example messages live in ``core/protos/example.py``.

``tf_record.read_records(filename, compression_type, buffer_size, offset)`` is the
reader a ``TFRecordDataset`` iterates: a generator of the records' bytes that checks
every checksum and raises `errors.DataLossError` (naming the file and offset) for a
damaged file.
"""
