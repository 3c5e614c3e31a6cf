import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class MLP(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.layer1 = Dense(3, 4)
            self.layer2 = Dense(4, 2, name="out")
        self.scale = tf.Variable(2.0, trainable=False, name="scale")

    def __call__(self, x):
        return self.layer2(self.layer1(x)) * self.scale


d = Dense(3, 2)
print(d.name)
print([v.name for v in d.variables])
print(d(tf.ones([1, 3])))
m = MLP()
print(m.name, m.name_scope.name)
print(m(tf.ones([2, 3])))
print(len(m.variables), len(m.trainable_variables), len(m.non_trainable_variables))
print([v.name for v in m.trainable_variables])
print([v.name for v in m.variables])
print([s.name for s in m.submodules])
print(MLP(name="custom").name)
print(type(m).__name__, isinstance(m, tf.Module))


class WithList(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(2, 2, name=f"d{i}") for i in range(3)]
        self.table = {"a": tf.Variable(1.0, name="a"), "b": tf.Variable(2.0, name="b")}


wl = WithList()
print(wl.name, len(wl.variables), len(wl.submodules))
print([v.name for v in wl.variables])
print(sorted(v.name for v in wl.trainable_variables))


class Scoped(tf.Module):
    @tf.Module.with_name_scope
    def __call__(self, x):
        if not hasattr(self, "v"):
            self.v = tf.Variable(x, name="v")
        return self.v


s = Scoped()
s(tf.constant(1.0))
print(s.v.name)

try:
    tf.Module(name="not valid")
except ValueError as e:
    print("ValueError")
print(tf.Module().name, tf.Module(name="m_2").name)
