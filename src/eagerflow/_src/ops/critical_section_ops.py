"""``tf.CriticalSection``: runs functions one at a time, eagerly and inside `function`.

A critical section holds a mutex (a ``resource`` scalar whose value is a `_Mutex`).
`CriticalSection.execute` takes its lock (``MutexLock``, whose ``variant`` result holds
it), runs the function, and gives the lock back (``ConsumeMutexLock``): eagerly at once,
in a traced function at every call, the function's ops between the two (stateful ops keep
program order). A function that runs into an error gives the lock back too.

>>> cs = tf.CriticalSection()
>>> v = tf.Variable(0)
>>> print(cs.execute(lambda: v.assign_add(1)).numpy())
1
"""
import sys
import threading
import weakref

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import nest
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import register
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable, handle_text
from eagerflow._src.ops.cast_ops import identity



class _Mutex:
    """The value of a critical section's mutex tensor: a lock that knows who holds it.

    A graph run that fails between ``MutexLock`` and ``ConsumeMutexLock`` leaves its lock
    taken while its error is kept (the run's frame holds the lock's value): a lock whose
    run is no longer on its thread's stack is stale, and the next taker takes it over, as
    TF frees the lock with the failed run's tensors. A thread taking a lock that a live run
    of its own holds would wait forever: an error instead.
    """

    __slots__ = ("lock", "state", "owner", "frame", "generation", "section", "__weakref__")
    shape = ()
    ndim = 0
    dtype = _d.resource  # (as the tables' values: the Python object it holds)

    def __init__(self, section):
        self.lock = threading.Lock()
        self.state = threading.RLock()  # guards owner, frame and generation
        self.owner = None  # the thread holding the lock
        self.frame = None  # the frame of the graph run holding it (None: an eager execute)
        self.generation = 0  # counts the times the lock was taken
        self.section = weakref.ref(section)

    def acquire(self, frame):
        """Takes the lock for the graph run in `frame` (None: eagerly); returns the
        generation `release` takes."""
        me = threading.get_ident()
        while True:
            with self.state:
                mine = self.owner == me
            if mine and not self._stale():
                raise ValueError(_nested_message(self.section()))
            if self.lock.acquire(timeout=_STALE_CHECK_SECONDS):
                break
            if self._stale():
                self.release(self.generation)
        with self.state:
            self.owner, self.frame = me, frame
            self.generation += 1
            return self.generation

    def release(self, generation):
        """Gives the lock back, if it is still taken as `generation`."""
        with self.state:
            if self.generation != generation or self.owner is None:
                return
            frame, self.owner, self.frame = self.frame, None, None
            self.lock.release()
        del frame  # (outside the state lock: the frame's values may give their locks back)

    def _stale(self):
        with self.state:
            owner, frame = self.owner, self.frame
        if owner is None or frame is None:
            return False
        f = sys._current_frames().get(owner)
        while f is not None:
            if f is frame:
                return False
            f = f.f_back
        return True

    def __repr__(self):
        return handle_text("", "tensorflow::(anonymous namespace)::Mutex")


_STALE_CHECK_SECONDS = 0.05  # how often a waiting taker looks for a failed run's lock


class _Lock:
    """The value of ``MutexLock``'s ``variant`` result: the taken lock, given back by
    ``ConsumeMutexLock`` (or when the value goes)."""

    __slots__ = ("mutex", "generation")
    shape = ()
    ndim = 0
    dtype = _d.variant

    def __init__(self, mutex, generation):
        self.mutex, self.generation = mutex, generation

    def release(self):
        mutex, self.mutex = self.mutex, None
        if mutex is not None:
            mutex.release(self.generation)

    def __del__(self):
        self.release()


def _graph_run_frame():
    """The frame of the compiled graph program running this kernel; None eagerly."""
    f = sys._getframe(2)
    while f is not None and not f.f_code.co_filename.startswith("<eagerflow graph"):
        f = f.f_back
    return f


def _mutex_lock(xp, mutex):
    return _Lock(mutex, mutex.acquire(_graph_run_frame()))


def _consume_mutex_lock(xp, mutex_lock):
    mutex_lock.release()
    return ()


_MUTEX_LOCK = register("MutexLock", _mutex_lock, lambda mutex: (TensorShape([]), _d.variant),
                       tied=(), stateful=True, not_differentiable="a lock")
tf_args[_MUTEX_LOCK] = None  # (the mutex is a Python object held by reference: no raw op)
_CONSUME_MUTEX_LOCK = register("ConsumeMutexLock", _consume_mutex_lock, lambda mutex_lock: [],
                               multi=True, tied=(), stateful=True,
                               not_differentiable="a lock")
tf_args[_CONSUME_MUTEX_LOCK] = None


# -- the sections running on this thread, and each graph's executions --------------------------

_running = threading.local()  # .sections: the critical sections this thread is executing in


def _sections():
    found = getattr(_running, "sections", None)
    if found is None:
        found = _running.sections = []
    return found


def _nested_message(section):
    return (f"Attempting to lock a CriticalSection (signature={section._signature}) in which "
            f"we are already running. This is illegal and may cause deadlocks.")


class _Execution:
    """One `execute` traced into a graph: its section, the variables its function reached,
    and whether it asked for them alone."""

    __slots__ = ("section", "resources", "exclusive_resource_access")

    def __init__(self, section, resources, exclusive_resource_access):
        self.section = section
        self.resources = resources
        self.exclusive_resource_access = exclusive_resource_access

    def __repr__(self):
        return (f"_ExecutionSignature(section={self.section!r}, resources="
                f"{list(self.resources.values())!r}, exclusive_resource_access="
                f"{self.exclusive_resource_access})")


_executions = weakref.WeakKeyDictionary()  # graph -> its `_Execution`s


def _resources(graph, first):
    """The variables the ops of `graph` from its `first` reach, by id."""
    found = {}
    for op in graph.get_operations()[first:]:
        for t in op.inputs:
            if isinstance(t, Variable):
                found.setdefault(id(t), t)
    return found


@export("CriticalSection")
class CriticalSection:
    """Runs functions one at a time: `execute` holds the section's lock while its function
    runs, on any thread, eagerly or in a `function` (at every call).

    Executing in a section from a function it runs is an error (it would wait forever).
    While a function traces, an execution whose variables another section's execution
    reaches is an error unless neither asked for exclusive access.

    >>> cs = tf.CriticalSection()
    >>> print(cs.execute(lambda: tf.constant(2) * 3).numpy())
    6
    """

    def __init__(self, name=None, shared_name=None, critical_section_def=None,
                 import_scope=None):
        if critical_section_def is not None:
            raise ValueError("critical_section_def is not supported: a CriticalSection is "
                             "made from its name and shared_name.")
        self._shared_name = shared_name or ""
        self._mutex = _Mutex(self)
        handle = object.__new__(EagerTensor)
        handle._data = self._mutex
        self._handle = handle
        graph = context.get().graph
        self._name = None if graph is None else graph.unique_name(name or "CriticalSection")
        self._signature = (self._shared_name, id(self), errors.EAGER_DEVICE)

    @property
    def name(self):
        """The name of the section's mutex op; eagerly (no ops) an AttributeError, as in TF."""
        if self._name is None:
            raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
        return self._name

    def __repr__(self):
        return f"<CriticalSection {self._mutex!r}>"

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """Runs `fn()` holding the section's lock and returns its result (tensors and
        variables in it as new tensors).

        Args:
          fn: a function of no arguments.
          exclusive_resource_access: whether no other section's execution may reach the
            variables `fn` reaches (checked while a function traces).
          name: unused (TF's name scope of the ops).

        Raises:
          ValueError: `fn` executes in this section again, or (while tracing) it reaches
            another section's variables that either asked for alone.
        """
        sections = _sections()
        if any(s is self for s in sections):
            raise ValueError(_nested_message(self))
        graph = context.get().graph
        first = None if graph is None else len(graph.get_operations())
        lock = dispatch(_MUTEX_LOCK, (self._handle,), {})
        sections.append(self)
        try:
            result = fn()
            result = nest.map_structure(
                lambda x: identity(x) if isinstance(x, (Tensor, Variable)) else x, result)
            if graph is not None:
                self._add_execution(graph, _resources(graph, first), exclusive_resource_access)
        except BaseException:
            if graph is None:
                lock._data.release()
            raise
        finally:
            sections.pop()
        dispatch(_CONSUME_MUTEX_LOCK, (lock,), {})
        return result

    def _add_execution(self, graph, resources, exclusive):
        executions = _executions.setdefault(graph, [])
        for other in executions:
            if other.section is self or not (exclusive or other.exclusive_resource_access):
                continue
            shared = [t for key, t in resources.items() if key in other.resources]
            if shared:
                raise ValueError(
                    f"This execution would access resources: {shared}. Either this lock "
                    f"(CriticalSection: {self._mutex!r}) or lock '{other!r}' "
                    f"(CriticalSection: {other.section._mutex!r}) requested exclusive resource "
                    f"access of this resource. Did you mean to call execute with keyword "
                    f"argument exclusive_resource_access=False?")
        executions.append(_Execution(self, resources, exclusive))

