"""The order in which TF's TopKV2 kernel returns a row holding NaN.

NaN compares false with every value, so the comparisons TF's CPU kernel makes cannot
rank it: where NaN lands depends on the steps of the algorithm the kernel runs, which
depends on `k`. For rows without NaN every algorithm gives the one order (largest first,
ties by index) and `top_k` sorts them vectorised; a row with NaN replays the kernel's
steps here, on the row's values as Python floats:

* ``k == 1``: the row's maximum by a vectorised reduction (packets of 32 bytes, 16 for
  16-bit floats, whose lanes skip NaN, then the tail one by one, where NaN is kept until
  a number follows), and the first index holding it, else index 0;
* ``1 < k < n``: a bounded min-heap of the best `k` indices seen so far;
* ``k == n``: the C++ standard library's introsort of the whole row.

>>> nan_row_order(np.float32([1, 2, np.nan]), 1, True)
[0]
>>> nan_row_order(np.float32([3, np.nan, 1, 2]), 2, True)
[0, 1]
>>> nan_row_order(np.float32([3, np.nan, 1, 2]), 4, True)
[0, 1, 3, 2]
"""
import numpy as np


def nan_row_order(row, k, sorted):
    """The indices TF's TopKV2 returns for a 1-D NumPy `row` that holds NaN."""
    v = row.tolist()
    if k == 1:
        # packets of 32 bytes; of 16 for the 16-bit floats, which Eigen packs by eight
        return [_max_index(v, 8 if row.dtype.itemsize == 2 else 32 // row.dtype.itemsize)]
    if k == len(v):
        return _introsort_order(v)
    return _heap_order(v, k, sorted)


def _ranks_before(v):
    """TF's ranking of indices: `a` before `b` for a larger value, then a lower index."""
    def before(a, b):
        if v[b] < v[a]:
            return True
        if v[b] > v[a]:
            return False
        return a < b
    return before


def _max_index(v, lanes):
    """The index of the row's maximum as TF finds it (see the module docstring)."""
    whole = len(v) - len(v) % lanes
    vector = -np.inf
    for t in v[:whole]:
        if t > vector:  # NaN is skipped
            vector = t
    tail = -np.inf
    for t in v[whole:]:
        tail = tail if t < tail else t  # NaN replaces the running value
    best = vector if tail < vector else tail
    return next((i for i, t in enumerate(v) if t == best), 0)


def _heap_order(v, k, sorted):
    """The `k` best indices of `v` kept in a bounded heap whose root is the worst of them;
    a better index replaces the root (popped to the end, then pushed back in)."""
    before = _ranks_before(v)

    def sift_up(h, hole, value, top=0):  # `value` rises from `hole` no higher than `top`
        parent = (hole - 1) // 2
        while hole > top and before(h[parent], value):
            h[hole] = h[parent]
            hole, parent = parent, (parent - 1) // 2
        h[hole] = value

    def sift_down(h, hole, n, value):
        # the hole walks down to a leaf along the worse children, then `value` rises
        child = hole
        top = hole
        while child < (n - 1) // 2:
            child = 2 * child + 2
            if before(h[child], h[child - 1]):
                child -= 1
            h[hole] = h[child]
            hole = child
        if n % 2 == 0 and child == (n - 2) // 2:
            child = 2 * child + 2
            h[hole] = h[child - 1]
            hole = child - 1
        sift_up(h, hole, value, top)

    def pop(h, n):  # the root of h[:n] to h[n - 1]
        if n > 1:
            value, h[n - 1] = h[n - 1], h[0]
            sift_down(h, 0, n - 1, value)

    h = list(range(k + 1))
    for parent in range((k - 1) // 2, -1, -1):  # heapify the first k + 1, drop the worst
        sift_down(h, parent, k + 1, h[parent])
    pop(h, k + 1)
    del h[k]
    for c in range(k + 1, len(v)):
        if before(c, h[0]):
            pop(h, k)
            h[k - 1] = c
            sift_up(h, k - 1, c)
    if sorted:
        for n in range(k, 1, -1):
            pop(h, n)
    return h


def _introsort_order(v):
    """Indices of `v` largest first as TF's TopKV2 orders a whole row: the C++ standard
    library's introsort (median-of-three quicksort down to 16-element runs, then an
    insertion sort) comparing ``v[b] < v[a]``, then each run of equal values by index."""
    n = len(v)
    idx = list(range(n))

    def before(a, b):
        return v[b] < v[a]

    def linear_insert(i):  # moves idx[i] left past the elements it goes before
        val, j = idx[i], i
        while before(val, idx[j - 1]):
            idx[j] = idx[j - 1]
            j -= 1
        idx[j] = val

    def insertion_sort(first, last):
        for i in range(first + 1, last):
            val = idx[i]
            if before(val, idx[first]):
                idx[first + 1:i + 1] = idx[first:i]
                idx[first] = val
            else:
                linear_insert(i)

    def median_to_first(a, b, c):
        x, y, z = idx[a], idx[b], idx[c]
        if before(x, y):
            pick = b if before(y, z) else c if before(x, z) else a
        else:
            pick = a if before(x, z) else c if before(y, z) else b
        idx[a - 1], idx[pick] = idx[pick], idx[a - 1]

    def partition(first, last, pivot):
        while True:
            while before(idx[first], idx[pivot]):
                first += 1
            last -= 1
            while before(idx[pivot], idx[last]):
                last -= 1
            if first >= last:
                return first
            idx[first], idx[last] = idx[last], idx[first]
            first += 1

    def introsort(first, last, depth):
        while last - first > 16:
            if depth == 0:  # the heapsort fallback: TF's order there is not replayed
                idx[first:last] = sorted(idx[first:last], key=lambda i: (v[i] != v[i],
                                                                         -(v[i] == v[i] and v[i])))
                return
            depth -= 1
            median_to_first(first + 1, first + (last - first) // 2, last - 1)
            cut = partition(first + 1, last, first)
            introsort(cut, last, depth)
            last = cut

    introsort(0, n, 2 * (n.bit_length() - 1))
    insertion_sort(0, min(n, 16))
    for i in range(16, n):
        linear_insert(i)
    i = 0
    while i < n - 1:  # runs of equal values, by index (stable)
        j = i + 1
        while j < n and v[idx[j]] == v[idx[i]]:
            j += 1
        idx[i:j] = sorted(idx[i:j])
        i = j
    return idx
