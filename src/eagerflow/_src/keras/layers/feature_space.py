"""`tf.keras.utils.FeatureSpace`: one object preprocessing a dict of structured-data features.

Each feature is named with its kind (``"float_normalized"``,
``"string_categorical"``, ... or a `Feature` from the class's constructors):
a preprocessing layer (Normalization, Discretization, StringLookup, Hashing,
...) and an output mode. `adapt` learns what the layers need from a dataset
of dicts; then calling the space on a dict of batches gives each feature
encoded (categories one-hot, as multi-hot vectors of their cardinality) and,
optionally, crosses of features hashed into `crossing_dim` bins, either
concatenated (``output_mode="concat"``, features in sorted name order, then
the crosses) or as a dict. `get_inputs` and `get_encoded_features` give the
symbolic inputs (``(None, 1)`` each) and their encoding, to build a model.

>>> space = tf.keras.utils.FeatureSpace(
...     {"x": "float", "c": tf.keras.utils.FeatureSpace.string_categorical()})
>>> space.adapt(tf.data.Dataset.from_tensor_slices({"x": [1.0, 2.0], "c": ["a", "b"]}))
>>> space({"x": [5.0], "c": ["b"]}).numpy()
array([[0., 1., 0., 5.]], dtype=float32)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.keras import backend, late
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_layer import Input
from eagerflow._src.keras.layers.core import Identity
from eagerflow._src.keras.layers.merging import Concatenate
from eagerflow._src.keras.layers.preprocessing import Normalization, Rescaling
from eagerflow._src.keras.layers.preprocessing_category import (
    CategoryEncoding, Discretization, HashedCrossing, Hashing)
from eagerflow._src.keras.layers.preprocessing_lookup import IntegerLookup, StringLookup
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import array_ops


class Cross:
    """A crossing of features (by name), hashed into `crossing_dim` bins."""

    _serialized_module = "tf_keras.src.utils.feature_space"  # (configs name it as tf_keras)
    _serialized_registered_name = "Cross"

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in {"int", "one_hot"}:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                             f"{{'int', 'one_hot'}}. Received: output_mode={output_mode}")
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """A feature's input dtype, preprocessing layer and output mode (``"int"``,
    ``"one_hot"`` or ``"float"``)."""

    _serialized_module = "tf_keras.src.utils.feature_space"
    _serialized_registered_name = "Feature"

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in {"int", "one_hot", "float"}:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                             f"{{'int', 'one_hot', 'float'}}. Received: "
                             f"output_mode={output_mode}")
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            preprocessor = serialization.deserialize_keras_object(preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        return {"dtype": self.dtype,
                "preprocessor": serialization.serialize_keras_object(self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _made(kind, name, input_dtype, output_mode, layer_class, **kwargs):
    """A `Feature` of `input_dtype` preprocessed by a new `layer_class(**kwargs)`, named
    after the feature (or a new name of its `kind`)."""
    name = name or backend.unique_object_name(kind, zero_based=False)
    return Feature(input_dtype, layer_class(name=f"{name}_preprocessor", **kwargs),
                   output_mode)


def _from_config(value, kinds):
    """A `Feature` or `Cross` given, or made from its serialized config."""
    if isinstance(value, dict) and value.get("class_name") in kinds:
        return kinds[value["class_name"]].from_config(value["config"])
    return value


@export("keras.utils.FeatureSpace")
class FeatureSpace(Layer):
    """Preprocesses a dict of features into one vector (or a dict) per sample."""

    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        return _made("float", name, "float32", "float", Identity, dtype="float32")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        return _made("float_rescaled", name, "float32", "float", Rescaling, scale=scale,
                     offset=offset)

    @classmethod
    def float_normalized(cls, name=None):
        return _made("float_normalized", name, "float32", "float", Normalization, axis=-1)

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot",
                          name=None):
        return _made("float_discretized", name, "float32", output_mode, Discretization,
                     num_bins=num_bins, bin_boundaries=bin_boundaries)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                            name=None):
        return _made("integer_categorical", name, "int64", output_mode, IntegerLookup,
                     max_tokens=max_tokens, num_oov_indices=num_oov_indices)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                           name=None):
        return _made("string_categorical", name, "string", output_mode, StringLookup,
                     max_tokens=max_tokens, num_oov_indices=num_oov_indices)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        return _made("string_hashed", name, "string", output_mode, Hashing, num_bins=num_bins)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        return _made("integer_hashed", name, "int64", output_mode, Hashing, num_bins=num_bins)

    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32,
                 hashing_dim=32, num_discretization_bins=32, **kwargs):
        if not features:
            raise ValueError("The `features` argument cannot be None or empty.")
        super().__init__(**kwargs)
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {name: self._standardize_feature(name, value)
                         for name, value in features.items()}
        self.crosses = []
        for cross in crosses or ():
            cross = _from_config(cross, {"Cross": Cross})
            if not isinstance(cross, Cross):
                if not crossing_dim:
                    raise ValueError("When specifying `crosses`, the argument `crossing_dim` "
                                     "(dimensionality of the crossing space) should be "
                                     "specified as well.")
                if any(key not in features for key in cross):
                    raise ValueError(f"All features referenced in the `crosses` argument "
                                     f"should be present in the `features` dict. Received "
                                     f"unknown features: {cross}")
                cross = Cross(cross, crossing_dim=crossing_dim)
            self.crosses.append(cross)
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        if output_mode not in {"dict", "concat"}:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                             f"{{'dict', 'concat'}}. Received: output_mode={output_mode}")
        self.output_mode = output_mode
        self.inputs = {name: Input(shape=(1,), dtype=feature.dtype, name=name)
                       for name, feature in self.features.items()}
        self.preprocessors = {name: f.preprocessor for name, f in self.features.items()}
        self.encoded_features = None
        self.crossers = {cross.name: HashedCrossing(cross.crossing_dim, name=cross.name)
                         for cross in self.crosses}
        self.one_hot_encoders = {}
        self._is_adapted = False
        self.concat = None
        self._names = None  # (the features' sorted names, then the crosses')

    def _standardize_feature(self, name, feature):
        feature = _from_config(feature, {"Feature": Feature})
        if isinstance(feature, Feature):
            return feature
        makers = {"float": lambda: self.float(name=name),
                  "float_normalized": lambda: self.float_normalized(name=name),
                  "float_rescaled": lambda: self.float_rescaled(name=name),
                  "float_discretized": lambda: self.float_discretized(
                      name=name, num_bins=self.num_discretization_bins),
                  "integer_categorical": lambda: self.integer_categorical(name=name),
                  "string_categorical": lambda: self.string_categorical(name=name),
                  "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=name),
                  "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=name)}
        if not isinstance(feature, str) or feature not in makers:
            raise ValueError(f"Invalid feature type: {feature}")
        return makers[feature]()

    def _adaptable(self):
        """The names of the features whose preprocessor learns from data."""
        return [name for name, layer in self.preprocessors.items()
                if hasattr(layer, "adapt") and
                not (isinstance(layer, Normalization) and layer.input_mean is not None)]

    def adapt(self, dataset):
        """Adapts each feature's preprocessing layer to its values in `dataset` (a
        `tf.data.Dataset` of dicts, batched or not)."""
        if not isinstance(dataset, Dataset):
            raise ValueError(f"`adapt()` can only be called on a tf.data.Dataset. Received "
                             f"instead: {dataset} (of type {type(dataset)})")
        for name in self._adaptable():
            values = dataset.map(lambda x, name=name: x[name])
            rank = values.element_spec.shape.rank
            if rank == 0:
                values = values.batch(32)
            if rank in (0, 1):
                values = values.map(lambda x: array_ops.expand_dims(x, -1))
            self.preprocessors[name].adapt(values)
        self._is_adapted = True
        self.get_encoded_features()  # (builds the encoders)
        self.built = True

    def get_inputs(self):
        """``{name: Keras Input}`` of the features (each ``(None, 1)``)."""
        self._check_if_built()
        return self.inputs

    def get_encoded_features(self):
        """The encoding of `get_inputs()` (a Keras tensor, or a dict of them)."""
        self._check_if_adapted()
        if self.encoded_features is None:
            preprocessed = self._preprocess(self.inputs)
            self.encoded_features = self._merge(preprocessed, self._cross(preprocessed))
        return self.encoded_features

    def _preprocess(self, features):
        return {name: self.preprocessors[name](features[name]) for name in features}

    def _cross(self, features):
        return {cross.name: self.crossers[cross.name](
            [features[name] for name in cross.feature_names]) for cross in self.crosses}

    def _merge(self, preprocessed, crossed):
        if self._names is None:
            self._names = sorted(preprocessed) + sorted(crossed)
        values = {**preprocessed, **crossed}
        if not self.built:
            self._make_encoders(values)
        encoded = {}
        for name in self._names:
            encoder = self.one_hot_encoders.get(name)
            encoded[name] = encoder(values[name]) if encoder else values[name]
        if self.output_mode == "dict":
            return encoded
        if self.concat is None:
            for name, value in encoded.items():
                dtype = value.dtype.name
                if dtype.startswith("int") or dtype == "string":
                    raise ValueError(f"Cannot concatenate features because feature "
                                     f"'{name}' has not been encoded (it has dtype {dtype}). "
                                     f"Consider using `output_mode='dict'`.")
            self.concat = Concatenate(axis=-1)
        return self.concat([encoded[name] for name in self._names])

    def _make_encoders(self, values):
        """A multi-hot `CategoryEncoding` of each one-hot feature's cardinality."""
        for name in self._names:
            spec = self.features[name] if name in self.features else self.crosses_by_name[name]
            if spec.output_mode != "one_hot":
                continue
            dtype = values[name].dtype.name
            if not dtype.startswith("int"):
                raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. Thus its "
                                 f"preprocessor should return an int64 dtype. Instead it "
                                 f"returns a {dtype} dtype.")
            layer = self.preprocessors.get(name) or self.crossers.get(name)
            if isinstance(layer, (IntegerLookup, StringLookup)):
                cardinality = layer.vocabulary_size()
            elif isinstance(layer, CategoryEncoding):
                cardinality = layer.num_tokens
            elif isinstance(layer, (Discretization, HashedCrossing, Hashing)):
                cardinality = layer.num_bins
            else:
                raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. However it "
                                 f"isn't a standard feature and the dimensionality of its "
                                 f"output space is not known, thus it cannot be one-hot "
                                 f"encoded. Try using `output_mode='int'`.")
            if cardinality is not None:
                self.one_hot_encoders[name] = CategoryEncoding(num_tokens=cardinality,
                                                               output_mode="multi_hot")

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace "
                                 "before you can start using it.")
            self._is_adapted = True

    def _check_if_built(self):
        if not self.built:
            self._check_if_adapted()
            self.get_encoded_features()
            self.built = True

    def __call__(self, data):
        self._check_if_built()
        if not isinstance(data, dict):
            raise ValueError(f"A FeatureSpace can only be called with a dict. Received: "
                             f"data={data} (of type {type(data)}")
        data = {key: convert_to_tensor(value) for key, value in data.items()}
        rebatched = False
        for name, x in data.items():
            if x.shape.rank == 0:
                data[name] = array_ops.reshape(x, [1, 1])
                rebatched = True
            elif x.shape.rank == 1:
                data[name] = array_ops.expand_dims(x, -1)
        preprocessed = self._preprocess(data)
        merged = self._merge(preprocessed, self._cross(preprocessed))
        if rebatched:  # (a single sample in, a single sample out)
            if self.output_mode == "concat":
                return array_ops.squeeze(merged, axis=0)
            merged = {name: array_ops.squeeze(x, axis=0)
                      if x.shape.rank == 2 and x.shape[0] == 1 else x
                      for name, x in merged.items()}
        return merged

    def get_config(self):
        return {"features": serialization.serialize_keras_object(self.features),
                "output_mode": self.output_mode,
                "crosses": serialization.serialize_keras_object(self.crosses),
                "crossing_dim": self.crossing_dim, "hashing_dim": self.hashing_dim,
                "num_discretization_bins": self.num_discretization_bins}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_build_config(self):
        return {name: feature.preprocessor.get_build_config()
                for name, feature in self.features.items()}

    def build_from_config(self, config):
        for name, build_config in config.items():
            if build_config is not None:
                self.features[name].preprocessor.build_from_config(build_config)
        self._is_adapted = True

    def save(self, filepath):
        """Saves the space (its configuration and what its layers learned) to a `.keras`
        file, which `tf.keras.models.load_model` reads back."""
        late.saving.saving_lib.save_model(self, filepath)

    def save_own_variables(self, store):
        return

    def load_own_variables(self, store):
        return
