import tempfile

import tensorflow as tf

TMP = tempfile.mkdtemp()
p = TMP + "/t.csv"
with open(p, "w") as f:
    f.write("a,b,c,name\n1,2.5,,x\n3,,7,y\n5,6.5,8,\n7,8.5,9,w\n")
ds = tf.data.experimental.make_csv_dataset(p, batch_size=2, num_epochs=1, shuffle=False, select_columns=['a', 'c'])
for b in ds:
    print(b)
ds = tf.data.experimental.make_csv_dataset(p, batch_size=3, num_epochs=1, shuffle=False, column_defaults=[0, 0.0, -1, "?"], label_name="name")
for f, l in ds:
    print(dict(f), l)
print(ds.element_spec)
cds = tf.data.experimental.CsvDataset(p, [tf.int32, tf.float32, tf.constant(0.0), tf.string], header=True, select_cols=None)
try:
    for r in cds:
        print(r)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
cds = tf.data.experimental.CsvDataset(p, [0, 0.0, 0, ""], header=True)
for r in cds:
    print(r)
print(tf.io.decode_csv(["1,2,3", "4,,6"], record_defaults=[[0], [9.0], [0]]))
lines = tf.data.TextLineDataset(p).skip(1)
for l in lines.map(lambda x: tf.io.decode_csv(x, [[0], [0.0], [0.0], ["z"]])):
    print(l)
ds = tf.data.experimental.make_csv_dataset(p, batch_size=4, num_epochs=1, shuffle=True, shuffle_seed=3, column_defaults=[0, 0.0, -1, "?"])
for b in ds:
    print(b['a'])
