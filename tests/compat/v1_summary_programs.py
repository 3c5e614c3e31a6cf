"""TF 1 summary programs (``tf.compat.v1.summary``) run by both TF (to record their
results, `data/make_v1_summary_data.py`) and eagerflow (`test_v1_summary.py`)."""
import glob
import os
import tempfile

import numpy as np

VALUES = [np.array([1.0, 2.0, 2.0, -3.0, 0.0], np.float32),
          np.random.RandomState(5).randn(200).astype(np.float64) * 10,
          np.arange(-4, 40, dtype=np.int32), np.zeros([0], np.float32),
          np.array([1e-13, -1e-13, 1e30, 5.5], np.float64)]

IMAGES = [np.linspace(0, 2, 12, dtype=np.float32).reshape(2, 2, 3, 1),
          np.linspace(-1, 0.5, 12, dtype=np.float32).reshape(1, 2, 2, 3),
          (np.arange(16, dtype=np.uint8) * 10).reshape(1, 2, 2, 4),
          np.array([np.nan, 1.0, 0.5, 0.25], np.float32).reshape(1, 2, 2, 1),
          np.random.RandomState(2).rand(4, 5, 3, 3).astype(np.float64)]


def summaries(tf):
    """Serialized summaries (hex), names and collection of a graph's summary ops."""
    g = tf.Graph()
    with g.as_default():
        step = tf.placeholder(tf.float32, [], name="step")
        ops = [tf.summary.scalar("loss", step * 2.0), tf.summary.scalar("loss", step)]
        with tf.name_scope("train"):
            ops.append(tf.summary.scalar("acc", tf.constant(0.5), family="fam"))
            ops.append(tf.summary.scalar("bad name!", tf.constant(1), collections=["mine"]))
        ops += [tf.summary.histogram(f"h{i}", tf.constant(v)) for i, v in enumerate(VALUES)]
        ops.append(tf.summary.text("note", tf.constant(["hello", "w"])))
        ops.append(tf.summary.tensor_summary("t", tf.constant([[1, 2]]),
                                             summary_description="desc"))
        ops.append(tf.summary.tensor_summary("plain", tf.constant(2.5, tf.float64)))
        # (images apart: their PNG bytes are zlib's, not byte for byte TF's)
        images = [tf.summary.image(f"image{i}", tf.constant(batch),
                                   max_outputs=1 if i == 1 else 3, collections=["images"])
                  for i, batch in enumerate(IMAGES)]
        ops.append(tf.summary.merge(ops[:2]))
        ops.append(tf.summary.merge_all())
        ops.append(tf.summary.merge_all("mine"))
        none = tf.summary.merge_all("nothing")
    with tf.Session(graph=g) as sess:
        values = sess.run(ops, {step: 1.5})
        pictures = sess.run(images)
    decoded = []
    for serialized in pictures:
        for value in tf.Summary.FromString(serialized).value:
            image = value.image
            pixels = tf.io.decode_png(image.encoded_image_string).numpy()
            decoded.append([value.tag, image.height, image.width, image.colorspace,
                            pixels.reshape(-1).tolist()])
    return {"names": [t.name for t in ops + images], "values": [v.hex() for v in values],
            "collected": [t.name for t in g.get_collection("summaries")],
            "none": none is None, "images": decoded}


def file_writer(tf):
    """The events a `FileWriter` writes: summaries at steps, the graph, a session log."""
    logdir = tempfile.mkdtemp()
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        merged = tf.summary.merge([tf.summary.scalar("x", x),
                                   tf.summary.histogram("xs", tf.stack([x, x * 2]))])
        writer = tf.summary.FileWriter(logdir, graph=g)
    with tf.Session(graph=g) as sess:
        for i in range(3):
            writer.add_summary(sess.run(merged, {x: float(i)}), global_step=i)
    writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="direct", simple_value=7.0)]))
    writer.add_session_log(tf.SessionLog(status=tf.SessionLog.START), global_step=5)
    writer.close()
    (path,) = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    events = []
    for record in tf.io.tf_record_iterator(path):
        event = tf.Event.FromString(record)
        what = event.WhichOneof("what")
        item = {"step": event.step, "what": what}
        if what == "summary":
            item["summary"] = event.summary.SerializeToString().hex()
        elif what == "file_version":
            item["file_version"] = event.file_version
        elif what == "graph_def":
            nodes = tf.GraphDef.FromString(event.graph_def).node
            item["nodes"] = sorted(n.name for n in nodes)
        elif what == "session_log":
            item["status"] = event.session_log.status
        events.append(item)
    return events


CLIPS = [np.sin(np.arange(30, dtype=np.float32) / 3.0).reshape(1, 30, 1) * 0.7,
         np.linspace(-1, 1, 2 * 20 * 2, dtype=np.float32).reshape(2, 20, 2)]


def audio(tf):
    """Audio summaries (WAV clips, hex) with their op names, tags and fields, and the name
    of a `FileWriter`'s event file (``events.out.tfevents.<seconds>.<host><suffix>``)."""
    g = tf.Graph()
    with g.as_default():
        ops = [tf.summary.audio("clip", tf.constant(CLIPS[0]), 8000),
               tf.summary.audio("one", tf.constant(CLIPS[1]), 16000.5, max_outputs=1),
               tf.summary.audio("mono", tf.constant(CLIPS[1][:, :, 0]), tf.constant(22050.0),
                                family="fam")]
    with tf.Session(graph=g) as sess:
        values = sess.run(ops)
    clips = [[v.tag, v.audio.sample_rate, v.audio.num_channels, v.audio.length_frames,
              v.audio.content_type, v.audio.encoded_audio_string.hex()]
             for serialized in values for v in tf.Summary.FromString(serialized).value]
    logdir = tempfile.mkdtemp()
    with g.as_default():
        tf.summary.FileWriter(logdir, filename_suffix=".mine").close()
    (name,) = os.listdir(logdir)
    parts = name.split(".")
    return {"names": [t.name for t in ops], "types": [t.op.type for t in ops],
            "collected": len(g.get_collection("summaries")), "clips": clips,
            "file_name": parts[:3] + [len(parts), parts[-1]]}
