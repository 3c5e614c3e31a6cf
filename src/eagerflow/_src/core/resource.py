"""`tf.saved_model.experimental.TrackableResource`: an object holding a resource tensor that
tf.functions capture (the base of lookup tables and of what SavedModels restore as
resources)."""
from eagerflow._src.backend.api_export import export


@export("saved_model.experimental.TrackableResource")
class TrackableResource:
    """Holds a resource tensor, made on first use by `_create_resource`, that a
    `tf.function` can capture; `_initialize` fills it (a SavedModel's loader runs it) and
    `_destroy_resource` frees it. Subclasses define `_create_resource`.

    >>> class Counts(tf.saved_model.experimental.TrackableResource):
    ...     def _create_resource(self):
    ...         self.table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    ...         return self.table.resource_handle
    >>> counts = Counts()
    >>> counts.resource_handle.dtype
    tf.resource
    >>> int(counts.table.size())
    0
    """

    def __init__(self, device=""):
        self._resource_handle_value = None
        self._resource_device = device

    def _create_resource(self):
        """The resource tensor; each subclass makes its own."""
        raise NotImplementedError("TrackableResource._create_resource not implemented.")

    def _initialize(self):
        """Fills the resource once made (run when a SavedModel is loaded)."""

    def _destroy_resource(self):
        """Frees the resource."""

    def __del__(self):
        try:  # (as TF: at deletion, made or not; what it raises is dropped)
            self._destroy_resource()
        except Exception:  # noqa: BLE001
            pass

    @property
    def _resource_handle(self):
        return self._resource_handle_value

    @_resource_handle.setter
    def _resource_handle(self, value):
        self._resource_handle_value = value

    @property
    def resource_handle(self):
        """The resource tensor, made by `_create_resource` the first time it is asked for."""
        if self._resource_handle is None:
            self._resource_handle = self._create_resource()
        return self._resource_handle
