"""The slot through which tapes run compiled backward passes.

Compiling a backward pass needs the graph layer, which autodiff may not
import; the graph layer fills this slot when it loads
(`graph.tape_compiler`).  ``run(entries, targets, weightings, sources)``
returns one list of source gradients per weighting, or None when the tape
must be played op by op.
"""
run = None
