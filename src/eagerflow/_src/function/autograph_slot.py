"""The slot through which `function` runs Python code converted by AutoGraph.

AutoGraph sits above this layer and fills the slot when it loads
(`autograph.conversion`): ``call(fn, args, kwargs, options)`` converts `fn`
(with the optional features `options`, None for all) and calls it while a graph
is traced.  Empty, functions are traced as they are.
"""
call = None
