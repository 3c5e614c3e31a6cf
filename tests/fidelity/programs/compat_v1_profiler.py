import tensorflow as tf
from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

v1 = tf.compat.v1
Builder = v1.profiler.ProfileOptionBuilder


def frozen_flops(model, shape):
    fn = tf.function(lambda x: model(x)).get_concrete_function(tf.TensorSpec(shape))
    frozen = convert_variables_to_constants_v2(fn)
    with tf.Graph().as_default() as graph:
        tf.graph_util.import_graph_def(frozen.graph.as_graph_def(), name='')
        op = v1.profiler.profile(graph=graph, run_meta=v1.RunMetadata(), cmd='op',
                                 options=Builder.float_operation())
        print(type(op).__name__, op.total_float_ops)
        scope = v1.profiler.profile(graph=graph, cmd='scope', options=Builder.float_operation())
        print(type(scope).__name__, scope.total_float_ops, [c.name for c in scope.children])


cnn = tf.keras.Sequential([
    tf.keras.layers.Conv2D(4, 3, activation='relu', input_shape=(8, 8, 3)),
    tf.keras.layers.MaxPooling2D(), tf.keras.layers.Flatten(), tf.keras.layers.Dense(5),
    tf.keras.layers.Softmax()])
frozen_flops(cnn, [1, 8, 8, 3])

mlp = tf.keras.Sequential([tf.keras.layers.Dense(16, activation='relu', input_shape=(10,)),
                           tf.keras.layers.Dense(3)])
frozen_flops(mlp, [4, 10])

tiny = tf.keras.Sequential([tf.keras.layers.Dense(7, input_shape=(5,)), tf.keras.layers.Dense(2)])
frozen_flops(tiny, [1, 5])

g = tf.Graph()
with g.as_default():
    x = v1.placeholder(tf.float32, [None, 4])
    with v1.variable_scope("layer1"):
        w = v1.get_variable("w", [4, 3])
        b = v1.get_variable("b", [3], initializer=tf.zeros_initializer())
    y = tf.nn.softmax(tf.matmul(tf.ones([2, 4]), w) + b)
    loss = tf.reduce_mean(tf.square(y - 1.0)) + tf.nn.l2_loss(w)
    step = v1.get_variable("step", [], trainable=False)
    params = v1.profiler.profile(g, options=Builder.trainable_variables_parameter())
    print("params", params.total_parameters)
    print(params)
    quiet = Builder(Builder.float_operation()).with_empty_output().build()
    print(quiet)
    print("flops", v1.profiler.profile(g, options=quiet, cmd='op').total_float_ops)
    print(Builder.time_and_memory())
    print(Builder(Builder.trainable_variables_parameter()).with_max_depth(1).select(
        ['params', 'float_ops']).order_by('params').build())

# Default options, depth limits, orderings, both columns, the op view of parameters.
for n in [5, 1234, 123456, 12345678]:
    g = tf.Graph()
    with g.as_default():
        with tf.name_scope("a"):
            with tf.name_scope("b"):
                tf.Variable(tf.zeros([n]), name="v")
        tf.Variable(tf.zeros([3, n % 7]), name="w")
        tf.Variable(1.0, trainable=False, name="counter")
        print("default", v1.profiler.profile(g).total_parameters)
        v1.profiler.profile(g, cmd='op', options=Builder(
            Builder.trainable_variables_parameter()).select(['params', 'float_ops']).build())
        for depth in [1, 2, 3]:
            p = v1.profiler.profile(g, options=Builder(
                Builder.trainable_variables_parameter()).with_max_depth(depth).build())
            print("depth", depth, p.total_parameters)
        v1.profiler.profile(g, options=Builder(
            Builder.trainable_variables_parameter()).order_by('params').build())

# TF's formulas for gradients, transposed products, dilations and reductions.
R = tf.raw_ops
g = tf.Graph()
with g.as_default():
    x = tf.ones([2, 6, 6, 3]); w = tf.ones([3, 3, 3, 5]); dy = tf.ones([2, 3, 3, 5])
    with tf.name_scope("ops"):
        R.Conv2DBackpropInput(input_sizes=[2, 6, 6, 3], filter=w, out_backprop=dy,
                              strides=[1, 2, 2, 1], padding='SAME', name="cbi")
        R.Conv2DBackpropFilter(input=x, filter_sizes=[3, 3, 3, 5], out_backprop=dy,
                               strides=[1, 2, 2, 1], padding='SAME', name="cbf")
        tf.nn.conv2d_transpose(tf.ones([1, 4, 4, 5]), w, [1, 8, 8, 3], 2, name="tconv")
        R.AvgPoolGrad(orig_input_shape=[2, 6, 6, 3], grad=tf.ones([2, 2, 2, 3]),
                      ksize=[1, 3, 3, 1], strides=[1, 3, 3, 1], padding='VALID', name="apg")
        R.MaxPoolGrad(orig_input=x, orig_output=tf.ones([2, 2, 2, 3]), grad=tf.ones([2, 2, 2, 3]),
                      ksize=[1, 3, 3, 1], strides=[1, 3, 3, 1], padding='VALID', name="mpg")
        R.BiasAddGrad(out_backprop=x, name="bag")
        R.RsqrtGrad(y=tf.ones([7]), dy=tf.ones([7]), name="rg")
        R.Dilation2D(input=x, filter=tf.ones([2, 2, 3]), strides=[1, 1, 1, 1], rates=[1, 1, 1, 1],
                     padding='VALID', name="dil")
        R.MaxPool(input=tf.ones([1, 3, 6, 6]), ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2],
                  padding='VALID', data_format='NCHW', name="mp_nchw")
        R.Conv2D(input=tf.ones([1, 3, 6, 6]), filter=tf.ones([3, 3, 3, 4]), strides=[1, 1, 1, 1],
                 padding='SAME', data_format='NCHW', name="conv_nchw")
        R.BatchMatMulV2(x=tf.ones([3, 1, 2, 4]), y=tf.ones([5, 4, 6]), name="bmm_bc")
        R.BatchMatMulV2(x=tf.ones([2, 4, 3]), y=tf.ones([2, 4, 6]), adj_x=True, name="bmm_adj")
        R.MatMul(a=tf.ones([4, 3]), b=tf.ones([4, 6]), transpose_a=True, name="mm_ta")
        R.Mean(input=tf.ones([4, 5]), axis=[0], keep_dims=True, name="mean_kd")
        R.AddN(inputs=[tf.ones([3])], name="addn1")
        R.Mul(x=tf.constant(2.0), y=3.0, name="mul_scalar")
        R.Equal(x=tf.ones([3]), y=tf.ones([2, 1]), name="eq_bc")
        R.AvgPool(value=tf.ones([1, 5, 5, 2]), ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1],
                  padding='SAME', name="ap_same")
    p = v1.profiler.profile(g, options=Builder(Builder.float_operation()).with_empty_output()
                            .with_min_float_operations(0).build())
    def show(node):
        if node.float_ops:
            print(node.name, node.float_ops)
        for child in node.children:
            show(child)
    show(p)
    print("total", p.total_float_ops)

# Depth limits, thresholds, orderings and name filters in both views.
g = tf.Graph()
with g.as_default():
    x = tf.ones([4, 8])
    with tf.name_scope("l1"):
        h = tf.nn.relu(tf.matmul(x, tf.ones([8, 16])) + 1.0)
    with tf.name_scope("l2"):
        y = tf.matmul(h, tf.ones([16, 2])) * 2.0
        loss = tf.reduce_mean(tf.square(y)) - 1.0
    for name, options in [
            ("all accounted", Builder(Builder.float_operation()).account_displayed_op_only(False)
             .with_max_depth(2).build()),
            ("min 50", Builder(Builder.float_operation()).with_min_float_operations(50).build()),
            ("by name", Builder(Builder.float_operation()).order_by('name').build()),
            ("depth 2", Builder(Builder.float_operation()).with_max_depth(2).build()),
            ("hide", Builder(Builder.float_operation()).with_node_names(
                hide_name_regexes=['l2.*']).build()),
            ("start", Builder(Builder.float_operation()).with_node_names(
                start_name_regexes=['l2.*']).build()),
            ("matmuls", Builder(Builder.float_operation()).with_accounted_types(['MatMul']).build())]:
        for cmd in ['scope', 'op']:
            print("####", name, cmd)
            print("total", v1.profiler.profile(g, cmd=cmd, options=options).total_float_ops)

# A scalar variable's shape in the parameters report.
g = tf.Graph()
with g.as_default():
    tf.Variable(2.0, name="scale")
    tf.Variable(tf.ones([3, 1, 2]), name="w")
    print("params", v1.profiler.profile(g, options=Builder.trainable_variables_parameter())
          .total_parameters)

# The graph view: each op under the op consuming it.
g = tf.Graph()
with g.as_default():
    s = tf.Variable(2.0, name="scale")
    w = tf.Variable(tf.ones([3, 1, 2]), name="w")
    tf.reduce_sum(tf.ones([3, 1, 2]) * w * s)
    a = tf.ones([4]) * 2.0
    b = a + 1.0
    tf.reduce_sum(a * b)
    tf.reduce_mean(b)
    print("graph", v1.profiler.profile(g, cmd='graph', options=Builder.float_operation())
          .total_float_ops)
