import tempfile

import tensorflow as tf

TMP = tempfile.mkdtemp()
import os, shutil

class SimpleModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.a_variable = tf.Variable(5.0, name="train_me")
        self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")
    def __call__(self, x):
        return self.a_variable * x + self.non_trainable_variable

simple_module = SimpleModule(name="simple")
print(simple_module(tf.constant(5.0)))
print("trainable variables:", simple_module.trainable_variables)
print("all variables:", simple_module.variables)
print(simple_module.name, simple_module.name_scope.name)

class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name='w')
        self.b = tf.Variable(tf.zeros([out_features]), name='b')
    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)

class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)

tf.random.set_seed(42)
my_model = SequentialModule(name="the_model")
print("Model results:", my_model(tf.constant([[2.0, 2.0, 2.0]])))
print("Submodules:", [type(m).__name__ for m in my_model.submodules])
for var in my_model.variables:
    print(var.name, var.shape)

class FlexibleDenseModule(tf.Module):
    def __init__(self, out_features, name=None):
        super().__init__(name=name)
        self.is_built = False
        self.out_features = out_features
    def __call__(self, x):
        if not self.is_built:
            self.w = tf.Variable(tf.random.normal([x.shape[-1], self.out_features]), name='w')
            self.b = tf.Variable(tf.zeros([self.out_features]), name='b')
            self.is_built = True
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)

class MySequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = FlexibleDenseModule(out_features=3)
        self.dense_2 = FlexibleDenseModule(out_features=2)
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)

my_model = MySequentialModule(name="the_model")
print("Model results:", my_model(tf.constant([[2.0, 2.0, 2.0]])))

chkp_path = TMP + "/my_checkpoint"
shutil.rmtree(TMP + "/ck", ignore_errors=True)
chkp_path = TMP + "/ck/my_checkpoint"
checkpoint = tf.train.Checkpoint(model=my_model)
p = checkpoint.write(chkp_path)
print(os.path.basename(p))
print(sorted(os.listdir(TMP + "/ck")))
for name, shape in tf.train.list_variables(chkp_path):
    print(name, shape)
new_model = MySequentialModule()
new_checkpoint = tf.train.Checkpoint(model=new_model)
st = new_checkpoint.restore(chkp_path)
print(type(st).__name__)
print(new_model(tf.constant([[2.0, 2.0, 2.0]])))

class MySequentialModule2(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)
    @tf.function
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)

my_model = MySequentialModule2(name="the_model")
print(my_model([[2.0, 2.0, 2.0]]))
print(my_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]))

shutil.rmtree(TMP + "/the_saved_model", ignore_errors=True)
tf.saved_model.save(my_model, TMP + "/the_saved_model")
print(sorted(os.listdir(TMP + "/the_saved_model")))
new_model = tf.saved_model.load(TMP + "/the_saved_model")
print(isinstance(new_model, SequentialModule))
print(new_model([[2.0, 2.0, 2.0]]))
print(new_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]))
try:
    new_model([[2.0, 2.0, 2.0, 2.0]])
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(len(new_model.dense_1.variables) if hasattr(new_model.dense_1, "variables") else new_model.dense_1.w.shape)

class MyDense(tf.keras.layers.Layer):
    def __init__(self, in_features, out_features, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name='w')
        self.b = tf.Variable(tf.zeros([out_features]), name='b')
    def call(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)

simple_layer = MyDense(name="simple", in_features=3, out_features=3)
print(simple_layer([[2.0, 2.0, 2.0]]))

class FlexibleDense(tf.keras.layers.Layer):
    def __init__(self, out_features, **kwargs):
        super().__init__(**kwargs)
        self.out_features = out_features
    def build(self, input_shape):
        self.w = tf.Variable(tf.random.normal([input_shape[-1], self.out_features]), name='w')
        self.b = tf.Variable(tf.zeros([self.out_features]), name='b')
    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

flexible_dense = FlexibleDense(out_features=3)
print(flexible_dense.variables)
print("Model results:", flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]])))
print(flexible_dense.variables)
try:
    print("Model results:", flexible_dense(tf.constant([[2.0, 2.0, 2.0, 2.0]])))
except tf.errors.InvalidArgumentError as e:
    print("Failed:", str(e).splitlines()[0])

class MySequentialModel(tf.keras.Model):
    def __init__(self, name=None, **kwargs):
        super().__init__(**kwargs)
        self.dense_1 = FlexibleDense(out_features=3)
        self.dense_2 = FlexibleDense(out_features=2)
    def call(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)

my_sequential_model = MySequentialModel(name="the_model")
print("Model results:", my_sequential_model(tf.constant([[2.0, 2.0, 2.0]])))
print(my_sequential_model.variables)
print([type(m).__name__ for m in my_sequential_model.submodules])
my_sequential_model.summary()

inputs = tf.keras.Input(shape=[3,])
x = FlexibleDense(3)(inputs)
x = FlexibleDense(2)(x)
my_functional_model = tf.keras.Model(inputs=inputs, outputs=x)
my_functional_model.summary()
print(my_functional_model(tf.constant([[2.0, 2.0, 2.0]])))
shutil.rmtree(TMP + "/exname", ignore_errors=True)
my_sequential_model.save(TMP + "/exname")
reconstructed_model = tf.keras.models.load_model(TMP + "/exname")
print(reconstructed_model(tf.constant([[2.0, 2.0, 2.0]])))
print(type(reconstructed_model).__name__)
