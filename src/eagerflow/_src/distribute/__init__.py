"""``tf.distribute`` on one device: strategies that run each step as one replica."""
