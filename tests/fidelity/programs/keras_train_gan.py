"""A tiny GAN in the style of the DCGAN tutorial: two models, two optimizers, one step."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)
rng = np.random.RandomState(4)
real_data = (rng.randn(32, 4) * 0.5 + 2.0).astype("float32")
BATCH_SIZE, NOISE_DIM = 8, 3


def make_generator_model():
    model = tf.keras.Sequential(name="generator")
    model.add(tf.keras.layers.Dense(6, use_bias=False, input_shape=(NOISE_DIM,)))
    model.add(tf.keras.layers.BatchNormalization())
    model.add(tf.keras.layers.LeakyReLU())
    model.add(tf.keras.layers.Dense(4))
    return model


def make_discriminator_model():
    model = tf.keras.Sequential(name="discriminator")
    model.add(tf.keras.layers.Dense(6, input_shape=(4,)))
    model.add(tf.keras.layers.LeakyReLU(alpha=0.2))
    model.add(tf.keras.layers.Dropout(0.3))
    model.add(tf.keras.layers.Dense(1))
    return model


generator = make_generator_model()
discriminator = make_discriminator_model()
noise = tf.random.normal([1, NOISE_DIM])
generated = generator(noise, training=False)
print(generated.shape, generated.dtype)
decision = discriminator(generated)
print(decision.shape)
print([w.name for w in generator.weights])
print(len(generator.trainable_weights), len(generator.non_trainable_weights))
generator.summary()

cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def discriminator_loss(real_output, fake_output):
    real_loss = cross_entropy(tf.ones_like(real_output), real_output)
    fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
    return real_loss + fake_loss


def generator_loss(fake_output):
    return cross_entropy(tf.ones_like(fake_output), fake_output)


generator_optimizer = tf.keras.optimizers.Adam(1e-2)
discriminator_optimizer = tf.keras.optimizers.Adam(1e-2, beta_1=0.5)
gen_tracker = tf.keras.metrics.Mean(name="gen_loss")
disc_tracker = tf.keras.metrics.Mean(name="disc_loss")


@tf.function
def train_step(images):
    noise = tf.random.normal([BATCH_SIZE, NOISE_DIM])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated_images = generator(noise, training=True)
        real_output = discriminator(images, training=True)
        fake_output = discriminator(generated_images, training=True)
        gen_loss = generator_loss(fake_output)
        disc_loss = discriminator_loss(real_output, fake_output)
    gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
    gradients_of_discriminator = disc_tape.gradient(disc_loss,
                                                    discriminator.trainable_variables)
    generator_optimizer.apply_gradients(
        zip(gradients_of_generator, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(
        zip(gradients_of_discriminator, discriminator.trainable_variables))
    gen_tracker.update_state(gen_loss)
    disc_tracker.update_state(disc_loss)
    return gen_loss, disc_loss


for epoch in range(3):
    for start in range(0, 32, BATCH_SIZE):
        gen_loss, disc_loss = train_step(real_data[start:start + BATCH_SIZE])
    print(f"epoch {epoch}: gen {gen_tracker.result():.2f} disc {disc_tracker.result():.2f}",
          gen_loss.shape, disc_loss.dtype)
    gen_tracker.reset_state()
    disc_tracker.reset_state()

print(int(generator_optimizer.iterations), int(discriminator_optimizer.iterations))
print([v.name for v in generator_optimizer.variables()][:4])
print(len(discriminator_optimizer.variables()))
print(generator_optimizer.get_config()["beta_1"], discriminator_optimizer.get_config()["beta_1"])
bn = generator.layers[1]
print(bn.name, [w.name for w in bn.non_trainable_weights])
print(bool(np.all(bn.moving_variance.numpy() > 0)), bn.moving_mean.shape)
samples = generator(tf.random.normal([5, NOISE_DIM]), training=False)
print(samples.shape, bool(np.all(np.isfinite(samples.numpy()))))
print(train_step.experimental_get_tracing_count())

# The GAN as one Model with its own compile() and train_step, as the Keras guide does.


class GAN(tf.keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.gen_loss_tracker = tf.keras.metrics.Mean(name="generator_loss")
        self.disc_loss_tracker = tf.keras.metrics.Mean(name="discriminator_loss")

    @property
    def metrics(self):
        return [self.gen_loss_tracker, self.disc_loss_tracker]

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn

    def train_step(self, real_images):
        batch_size = tf.shape(real_images)[0]
        latent_shape = tf.stack([batch_size, self.latent_dim])
        random_latent_vectors = tf.random.normal(shape=latent_shape)
        generated_images = self.generator(random_latent_vectors)
        combined_images = tf.concat([generated_images, real_images], axis=0)
        labels = tf.concat([tf.ones((batch_size, 1)), tf.zeros((batch_size, 1))], axis=0)
        with tf.GradientTape() as tape:
            predictions = self.discriminator(combined_images)
            d_loss = self.loss_fn(labels, predictions)
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        random_latent_vectors = tf.random.normal(shape=latent_shape)
        misleading_labels = tf.zeros((batch_size, 1))
        with tf.GradientTape() as tape:
            predictions = self.discriminator(self.generator(random_latent_vectors))
            g_loss = self.loss_fn(misleading_labels, predictions)
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        self.gen_loss_tracker.update_state(g_loss)
        self.disc_loss_tracker.update_state(d_loss)
        return {"g_loss": self.gen_loss_tracker.result(),
                "d_loss": self.disc_loss_tracker.result()}


gan = GAN(make_discriminator_model(), make_generator_model(), NOISE_DIM)
gan.compile(d_optimizer=tf.keras.optimizers.Adam(3e-3),
            g_optimizer=tf.keras.optimizers.Adam(3e-3),
            loss_fn=tf.keras.losses.BinaryCrossentropy(from_logits=True))
history = gan.fit(real_data, epochs=2, batch_size=BATCH_SIZE, verbose=0)
print(sorted(history.history), len(history.history["g_loss"]), history.params)
print([m.name for m in gan.metrics], gan.metrics_names)
print([layer.name for layer in gan.layers])
print(int(gan.d_optimizer.iterations), int(gan.g_optimizer.iterations))
print(type(gan.optimizer).__name__, gan.loss)
print(len(gan.trainable_weights), len(gan.weights))
