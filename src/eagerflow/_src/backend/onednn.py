"""Native CPU kernels from oneDNN: the switch, memory descriptions, and cached primitives.

Op kernels ask `enabled()`, build a `Primitive` once per configuration through
`cached(key, build)`, and run it on NumPy arrays. The library loads on the
first kernel that asks, never at ``import eagerflow``. Where it cannot load
(another platform, a missing wheel) or is switched off with
``TF_ENABLE_ONEDNN_OPTS=0`` (TensorFlow's own switch), `enabled()` is False
and the NumPy kernels run instead; on x86-64 Linux a missing library is said
once, as a warning.

A primitive describes each argument with the layout oneDNN prefers and, when
that differs from the caller's plain array (blocked weights, say), reorders
between the two around the call, through a buffer of its own (kept, with its
scratchpad, where small). The caller's arrays are bound to the native memory
objects at each call (again only where an address changed) and stay referenced
by the caller for its whole duration, so no native call sees memory that can
be freed while it runs.

>>> import numpy as np
>>> if enabled():
...     x = np.arange(6, dtype=np.float32).reshape(2, 3)
...     y = np.empty((3, 2), np.float32)
...     reorder = cached(("doc-transpose",), lambda: Primitive.reorder(
...         describe(x.shape, x.dtype, x.strides), describe(x.shape, x.dtype, (4, 8))))
...     reorder({api.ARG_SRC: x}, {api.ARG_DST: y})
...     assert (y == x.T).all()
"""
import collections
import ctypes
import os
import threading
import warnings

import numpy

from eagerflow._src.backend import onednn_api as api
from eagerflow._src.backend import threads

_DTYPES = {numpy.dtype(numpy.float32): api.F32, numpy.dtype(numpy.float16): api.F16,
           numpy.dtype(numpy.int32): api.S32, numpy.dtype(numpy.int8): api.S8,
           numpy.dtype(numpy.uint8): api.U8}
try:
    import ml_dtypes
    _DTYPES[numpy.dtype(ml_dtypes.bfloat16)] = api.BF16
except ImportError:  # pragma: no cover - ml_dtypes is a dependency
    pass

_state = threading.local()
_lock = threading.Lock()
_lib = None        # the loaded library, once loaded
_engine = None
_failed = False    # the library could not be loaded
_switch = None     # set_enabled's choice; None follows the environment
CACHE_SIZE = 1024  # primitives kept, least recently used dropped first (oneDNN's own default)


_SWITCH = "TF_ENABLE_ONEDNN_OPTS"
try:  # the environment's own dict (raw values): a read costs 50 ns, os.environ's 0.5-2 us
    _RAW_ENVIRON, _RAW_SWITCH = os.environ._data, os.environ.encodekey(_SWITCH)
except AttributeError:  # pragma: no cover - another os.environ
    _RAW_ENVIRON, _RAW_SWITCH = os.environ, _SWITCH
_allows = {}  # the switch's raw value -> whether it allows oneDNN


def _environment_allows():
    """Whether ``TF_ENABLE_ONEDNN_OPTS`` (read at each call, as tests change it) allows
    oneDNN (kernels ask at every call)."""
    raw = _RAW_ENVIRON.get(_RAW_SWITCH)
    if raw is None:
        return True
    allows = _allows.get(raw)
    if allows is None:
        value = os.environ.get(_SWITCH, "1")
        allows = _allows[raw] = value.strip().lower() not in ("0", "false")
    return allows


def set_enabled(flag):
    """Force oneDNN on (True), off (False), or back to the environment's choice (None).

    >>> set_enabled(False); enabled()
    False
    >>> set_enabled(None)
    """
    global _switch
    _switch = flag


def flat_float32(arrays, min_size):
    """Whether `arrays` can go to an elementwise primitive as flat float32 buffers: of one
    shape, C-contiguous, at least `min_size` elements (below, NumPy's passes in cache cost
    less than a native call), with oneDNN enabled."""
    first = arrays[0]
    if first.size < min_size:
        return False
    shape = first.shape
    for a in arrays:  # (a loop: a generator for `all` costs as much as the checks)
        if a.dtype != _F32 or a.shape != shape or not a.flags.c_contiguous:
            return False
    return enabled()


_F32 = numpy.dtype(numpy.float32)


def enabled():
    """True when kernels should use oneDNN: switched on, and the library loads."""
    if _lib is not None:
        return _switch is not False and (_switch or _environment_allows())
    if _failed or _switch is False or (_switch is None and not _environment_allows()):
        return False
    return _load() is not None


def _load():
    global _lib, _engine, _failed
    with _lock:
        if _lib is None and not _failed:
            try:
                lib = api.load()
                engine = ctypes.c_void_p()
                lib.dnnl_engine_create(ctypes.byref(engine), api.CPU_ENGINE, 0)
                _engine, _lib = engine, lib
                threads.openmp_loaded()
            except (OSError, AttributeError, api.DnnlError) as error:
                _failed = True
                if api.expected():
                    warnings.warn(f"oneDNN could not be loaded ({error}); NumPy kernels run "
                                  "instead, more slowly.", RuntimeWarning, stacklevel=3)
    return _lib


def lib():
    """The loaded library (`enabled()` must have been True)."""
    return _lib


def _stream():
    stream = getattr(_state, "stream", None)
    if stream is None:  # one stream per thread: a stream is not shared between threads
        stream = ctypes.c_void_p()
        _lib.dnnl_stream_create(ctypes.byref(stream), _engine, api.STREAM_DEFAULT_FLAGS)
        _state.stream = stream
    return stream


def dims(values):
    """A ``dnnl_dims_t`` holding `values`."""
    return api.Dims(*values)


class Desc:
    """An owned memory descriptor (freed with this object)."""
    __slots__ = ("handle", "__weakref__")

    def __init__(self, handle):
        self.handle = handle

    @property
    def size(self):
        """Bytes an array of this layout takes."""
        return _lib.dnnl_memory_desc_get_size(self.handle)

    def __eq__(self, other):
        return bool(_lib.dnnl_memory_desc_equal(self.handle, other.handle))

    def __hash__(self):
        return id(self)

    def __del__(self):
        if self.handle and _lib is not None:
            _lib.dnnl_memory_desc_destroy(self.handle)


def describe(shape, dtype, strides=None):
    """A plain layout: `strides` in bytes (as NumPy gives them), or None for "any".

    Empty arrays are `Unsupported` (oneDNN divides by zero on them): the NumPy
    kernels handle those.
    """
    if not all(shape):
        raise api.Unsupported("dnnl_memory_desc_create (empty array)", api.UNIMPLEMENTED)
    handle = ctypes.c_void_p()
    data_type = _DTYPES[numpy.dtype(dtype)]
    if strides is None:
        _lib.dnnl_memory_desc_create_with_tag(ctypes.byref(handle), len(shape), dims(shape),
                                              data_type, api.FORMAT_ANY)
    else:
        size = numpy.dtype(dtype).itemsize
        _lib.dnnl_memory_desc_create_with_strides(
            ctypes.byref(handle), len(shape), dims(shape), data_type,
            dims([s // size for s in strides]))
    return Desc(handle)


def plain_strides(shape, dtype, order=None):
    """Byte strides of a C-contiguous array of `shape` whose axes are laid out in `order`.

    `order` lists logical axes from outermost to innermost (default: as given).
    >>> plain_strides((2, 3, 4), numpy.float32, order=(0, 2, 1))
    (48, 4, 12)
    """
    order = tuple(range(len(shape))) if order is None else tuple(order)
    strides, step = [0] * len(shape), numpy.dtype(dtype).itemsize
    for axis in reversed(order):
        strides[axis] = step
        step *= max(int(shape[axis]), 1)
    return tuple(strides)


def _address(array):
    """The address of a C-contiguous array's first element.

    A ctypes view of a writable array's buffer gives it in a third of the time
    ``__array_interface__`` takes (which builds a dict of shape, strides and
    type); read-only arrays (constants) have no writable buffer to view.
    """
    try:
        return _addressof(_view(array))
    except (TypeError, ValueError):
        return array.__array_interface__["data"][0]


_addressof, _view = ctypes.addressof, ctypes.c_char.from_buffer


def aligned(nbytes):
    """An uninitialised byte buffer aligned to 64 bytes, as oneDNN's kernels like."""
    raw = numpy.empty(nbytes + 64, numpy.uint8)
    start = -_address(raw) % 64
    return raw[start:start + nbytes]


class _Handle:
    """A native object destroyed with its Python owner."""
    __slots__ = ("value", "destroy")

    def __init__(self, destroy):
        self.value, self.destroy = ctypes.c_void_p(), destroy

    def __del__(self):
        if self.value and _lib is not None:
            getattr(_lib, self.destroy)(self.value)


def attributes(post_ops=()):
    """Primitive attributes: the scratchpad comes with each call, plus `post_ops`.

    `post_ops` holds ``(algorithm, alpha, beta)`` triples (eltwise) and
    ``(algorithm, Desc)`` pairs (binary: the result op the operand of that
    layout, passed as argument ``api.post_op_arg(index)``). oneDNN's own
    scratchpad is shared by the primitives a thread made, so one run from
    another thread at the same time would overwrite it; `Primitive` passes a
    buffer of its own to each call instead. Every primitive descriptor should
    be created with these attributes.
    """
    attr = _Handle("dnnl_primitive_attr_destroy")
    _lib.dnnl_primitive_attr_create(ctypes.byref(attr.value))
    _lib.dnnl_primitive_attr_set_scratchpad_mode(attr.value, api.SCRATCHPAD_MODE_USER)
    if post_ops:
        ops = _Handle("dnnl_post_ops_destroy")
        _lib.dnnl_post_ops_create(ctypes.byref(ops.value))
        for algorithm, *operands in post_ops:
            if len(operands) == 1:
                _lib.dnnl_post_ops_append_binary(ops.value, algorithm, operands[0].handle)
            else:
                _lib.dnnl_post_ops_append_eltwise(ops.value, algorithm, *operands)
        _lib.dnnl_primitive_attr_set_post_ops(attr.value, ops.value)  # copied: `ops` may go
    return attr


def implementation(pd):
    """oneDNN's name for the implementation primitive descriptor `pd` (a `_Handle`) holds."""
    name = ctypes.c_char_p()
    _lib.dnnl_primitive_desc_query(pd.value, api.QUERY_IMPL_INFO_STR, 0, ctypes.byref(name))
    return name.value.decode()


def skip_implementations(pd, prefixes):
    """Moves `pd` past the implementations whose names start with one of `prefixes`, to the
    next one oneDNN has for the same operation; `pd` stays at the last one when all do."""
    while implementation(pd).startswith(prefixes) and \
            _lib.dnnl_primitive_desc_next_impl(pd.value) == api.SUCCESS:
        pass
    return pd


# A primitive keeps its own buffers (the scratchpad, its layouts of reordered arguments),
# bound to its memory objects once, when together they take at most this many bytes:
# allocating and binding them anew cost a few microseconds a call. Larger ones (rare: a
# convolution over large images) come from NumPy at each call, as its arrays do.
KEEP_BYTES = 1 << 18


class Primitive:
    """A oneDNN primitive with one memory object per argument, reordering where layouts differ.

    `pd` is a created primitive descriptor (owned from here on); `plain` maps
    each argument the caller passes to the `Desc` of the caller's arrays.

    A call runs under the primitive's lock, so that several threads may share it: its
    kept buffers (see `KEEP_BYTES`) serve one call at a time. An argument the caller
    passes is bound to the memory object again only when its address differs from the
    last call's (binding costs about as much as the rest of a small call; an array at the
    same address is the caller's live one, and the plain layouts callers describe have no
    padding that binding would zero; arguments `plain` maps to None are bound every time).
    """

    def __init__(self, pd, plain, keep=()):
        self._pd = pd
        self._keep = (plain, keep)  # descriptors the native objects point at
        self._sizes = {}  # argument -> bytes (see `size`)
        self._lock = threading.Lock()
        self._primitive = _Handle("dnnl_primitive_destroy")
        _lib.dnnl_primitive_create(ctypes.byref(self._primitive.value), pd.value)
        # per argument: its memory object; for those reordered, the reorders and the size
        # of the primitive's own layout
        self._memories, self._before, self._after, self._inner = {}, {}, {}, {}
        for arg, user in plain.items():
            inner = self.md(arg)
            if inner is None:
                raise api.Unsupported("argument not used by this primitive", api.UNIMPLEMENTED)
            if user is not None and not (user == inner):
                # The primitive wants its own layout: reorder through a buffer of it (the
                # reorders' bindings are kept on the caller's side only: a fresh buffer of
                # a blocked layout has its padding zeroed as it is bound).
                self._inner[arg] = inner.size
                self._memories[arg] = self._memory(inner.handle)
                convert = (Primitive.reorder(user, inner), Primitive.reorder(inner, user))
                convert[0]._unkept |= {api.ARG_DST}
                convert[1]._unkept |= {api.ARG_SRC}
                self._before[arg], self._after[arg] = convert
            else:
                self._memories[arg] = self._memory(inner.handle)
        # a scratchpad the caller does not pass is the primitive's own
        self._scratch = 0 if api.ARG_SCRATCHPAD in plain else self.size(api.ARG_SCRATCHPAD)
        if self._scratch:
            self._memories[api.ARG_SCRATCHPAD] = self._memory(
                self.md(api.ARG_SCRATCHPAD).handle)
        args = list(self._memories.items())
        self._args = (api.ExecArg * len(args))(*[api.ExecArg(a, m.value) for a, m in args])
        self._handles = {a: m.value for a, m in args}  # (read on every call)
        self._nargs = len(args)
        self._bound = {}  # argument -> the address its memory object was last given
        own = dict(self._inner)
        if self._scratch:
            own[api.ARG_SCRATCHPAD] = self._scratch
        # the buffers bound once: argument -> array, or None where allocated at each call
        self._buffers = self._kept_buffers(own) if sum(own.values()) <= KEEP_BYTES else None
        self._own = own if self._buffers is None else {}  # sizes of those allocated per call
        # arguments bound at every call: fresh buffers of the primitive's own layouts, and
        # those of a layout the caller did not describe (a workspace's may have padding)
        self._unkept = frozenset(self._own).union(
            arg for arg, user in plain.items() if user is None)

    def _kept_buffers(self, own):
        buffers, status = {}, 0
        bind = _lib.dnnl_memory_set_data_handle
        for arg, size in own.items():
            buffer = buffers[arg] = aligned(size)
            address = _address(buffer)
            status |= bind(self._handles[arg], address)
            if arg in self._before:
                status |= bind(self._before[arg]._handles[api.ARG_DST], address)
                status |= bind(self._after[arg]._handles[api.ARG_SRC], address)
        api.check(status, "dnnl_memory_set_data_handle")
        return buffers

    @staticmethod
    def reorder(source, target):
        """A primitive copying an array of layout `source` into one of layout `target`."""
        pd, attr = _Handle("dnnl_primitive_desc_destroy"), attributes()
        _lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd.value), source.handle, _engine,
                                                target.handle, _engine, attr.value)
        return Primitive(pd, {api.ARG_SRC: source, api.ARG_DST: target})

    def _memory(self, md):
        memory = _Handle("dnnl_memory_destroy")
        _lib.dnnl_memory_create(ctypes.byref(memory.value), md, _engine, None)
        return memory

    def md(self, arg):
        """The `Desc` (not owned: it lives as long as this primitive) of argument `arg`, or None."""
        handle = _lib.dnnl_primitive_desc_query_md(self._pd.value, api.QUERY_EXEC_ARG_MD, arg)
        return _Borrowed(handle) if handle else None

    def size(self, arg):
        """Bytes of argument `arg` (a workspace, say) in the primitive's layout; 0 if unused
        (remembered: kernels ask at every call)."""
        size = self._sizes.get(arg)
        if size is None:
            md = self.md(arg)
            size = self._sizes[arg] = 0 if md is None else md.size
        return size

    def implementation(self):
        """oneDNN's name for the implementation it chose (for diagnostics)."""
        return implementation(self._pd)

    def memory(self, arg):
        """The native memory object of argument `arg` (a plain layout's), for callers that bind
        it to their arrays' addresses themselves (``dnnl_memory_set_data_handle``) and run
        the primitive with `execute`: a kernel of a few microseconds costs a few more to
        bind through `__call__`. A scratchpad must be bound too, unless `kept` says so."""
        if arg in self._before or arg in self._after:
            raise api.Unsupported("a reordered argument has no plain memory", api.UNIMPLEMENTED)
        with self._lock:
            self._bound = None  # (bound by the caller from now on: never kept)
        return self._memories[arg].value

    def kept(self, arg):
        """Whether argument `arg` (the scratchpad, say) is bound to a buffer of the
        primitive's own for good."""
        return self._buffers is not None and arg in self._buffers

    def execute(self, stream):
        """Starts a run on the addresses bound to the memory objects (see `memory`; a
        scratchpad must be bound too, unless `kept`) on `stream`: the status, not checked."""
        return _lib.dnnl_primitive_execute(self._primitive.value, stream, self._nargs, self._args)

    def __call__(self, inputs, outputs):
        """Runs on `inputs` and writes `outputs` (dicts from argument index to arrays)."""
        with self._lock:
            stream = _stream()
            if self._buffers is not None:
                self._call(inputs, outputs, stream)
                return
            # buffers of the primitive's own come from NumPy for this call only
            own = {arg: aligned(size) for arg, size in self._own.items()}
            staged = []
            for arg, array in inputs.items():
                if arg in self._before:
                    buffer = own[arg]
                    self._before[arg]._run({api.ARG_SRC: array, api.ARG_DST: buffer}, stream)
                    array = buffer
                staged.append((arg, array))
            converted = []
            for arg, array in outputs.items():
                if arg in self._after:
                    buffer = own[arg]
                    converted.append((arg, buffer, array))
                    array = buffer
                staged.append((arg, array))
            if self._scratch:
                staged.append((api.ARG_SCRATCHPAD, own[api.ARG_SCRATCHPAD]))
            self._run(dict(staged), stream)
            for arg, buffer, array in converted:
                self._after[arg]._run({api.ARG_SRC: buffer, api.ARG_DST: array}, stream)

    def _call(self, inputs, outputs, stream):
        """A call whose own buffers are kept and bound: only the caller's arrays to bind."""
        before, after = self._before, self._after
        if before:  # (the stream runs in order: no wait before the next primitive)
            for arg, array in inputs.items():
                if arg in before:
                    reorder = before[arg]
                    reorder._execute(reorder._bind({api.ARG_SRC: array}, ()), stream, False)
        self._execute(self._bind(inputs, before) | self._bind(outputs, after), stream,
                      not after)
        if after:
            for arg, array in outputs.items():
                if arg in after:
                    after[arg]._run({api.ARG_DST: array}, stream)

    def _run(self, arrays, stream):
        self._execute(self._bind(arrays, ()), stream)

    def _bind(self, arrays, skip):
        """Binds the memory objects of `arrays` (but those in `skip`) to the arrays' addresses
        where they hold others: the native calls' status, or-ed."""
        handles, bound, unkept = self._handles, self._bound, self._unkept
        status = 0
        for arg, array in arrays.items():
            if arg in skip:
                continue
            try:  # (`_address`, inline: this runs for every argument of every call)
                address = _addressof(_view(array))
            except (TypeError, ValueError):
                address = array.__array_interface__["data"][0]
            if bound is None:
                status |= _lib.dnnl_memory_set_data_handle(handles[arg], address)
            elif bound.get(arg) != address:  # (else the caller's live array is there now)
                status |= _lib.dnnl_memory_set_data_handle(handles[arg], address)
                if arg not in unkept:
                    bound[arg] = address
        return status

    def _execute(self, status, stream, wait=True):
        """Runs on the bound arrays once their binding's `status` is checked; with `wait`,
        until done."""
        if status:
            if self._bound:
                self._bound.clear()
            api.check(status, "dnnl_memory_set_data_handle")
        api.check(_lib.dnnl_primitive_execute(self._primitive.value, stream, self._nargs,
                                              self._args), "dnnl_primitive_execute")
        if wait:
            api.check(_lib.dnnl_stream_wait(stream), "dnnl_stream_wait")


class _Borrowed(Desc):
    """A descriptor owned by a primitive descriptor: compared and sized, never freed."""
    __slots__ = ()

    def __del__(self):
        pass


_cache = collections.OrderedDict()
_MISSING = object()


def cached(key, build, serial=False, shares=False):
    """The primitive for `key`, made by `build()` on first use; None where oneDNN has none.

    `build` raising `Unsupported` is remembered as None, so that a configuration
    oneDNN cannot run costs one attempt. The least recently used go first.
    `serial` primitives run on one thread; those that `shares` the cores well keep
    the budget while other processes load them (see `threads.for_primitive`).
    """
    # a primitive runs on the OpenMP threads it was built for: one while other processes
    # keep the cores busy (unless it shares them well), the thread budget otherwise
    n = threads.for_primitive(serial, shares)
    key = (*key, n) if isinstance(key, tuple) else (key, n)
    primitive = _cache.get(key, _MISSING)
    if primitive is _MISSING:
        try:
            primitive = build()
        except api.Unsupported:
            primitive = None
        with _lock:
            _cache[key] = primitive
            if len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    else:
        try:
            _cache.move_to_end(key)
        except KeyError:  # dropped by another thread meanwhile
            pass
    return primitive


def clear_cache():
    """Drops every cached primitive (the native objects go with their last reference)."""
    with _lock:
        _cache.clear()
