"""Narrows known.KNOWN to the discrepancies that remain, after fixes land.

    python -m tests.differential.prune          # rewrite known.py in place
    python -m tests.differential.prune --dry    # only say what would change

Each pattern listed under a root cause in known.py is checked against every
key it names: a pattern whose keys all match TensorFlow now is dropped, one
whose keys all still differ is kept, and one that is partly fixed is replaced
by the keys that still differ. A root cause left with no keys is removed with
its reason. Nothing is ever added: new discrepancies are for a person to read.
"""
import argparse
import re
import sys
from pathlib import Path

from . import known
from .cases import all_cases
from .check import check, keys, matches, recorded

KNOWN_PY = Path(__file__).with_name("known.py")


def still_failing(patterns, all_keys, results, by_id):
    """{pattern: (keys it names, keys among them that still differ)}."""
    out = {}
    for pat in patterns:
        named = [k for k in all_keys if matches(pat, k)]
        out[pat] = named, [k for k in named if check(k, results, by_id) is not None]
    return out


def narrowed(patterns, status):
    kept = []
    for pat in patterns:
        named, failing = status[pat]
        if failing and len(failing) == len(named):
            kept.append(pat)
        else:
            kept.extend(failing)
    return kept


def _list_source(items):
    """A list literal in known.py's layout: 100 columns, eight-space indent."""
    lines, line = [], ""
    for item in items:
        piece = repr(item) + ", "
        if line and len(line) + len(piece) > 92:
            lines.append(line.rstrip())
            line = ""
        line += piece
    lines.append(line.rstrip().rstrip(","))
    return "[\n" + "".join(f"        {text}\n" for text in lines) + "    ]"


def rewrite(source, causes):
    """`source` of known.py with each `_CAUSE: [...]` list replaced by causes[name]."""
    for name, items in causes.items():
        # one line (`_X: ['a'],`) or several, closed by the indented bracket
        entry = re.compile(rf"^    {name}: \[([^\n]*\]|\n.*?\n    \]),?\n", re.S | re.M)
        if items:
            source = entry.sub(lambda m: f"    {name}: {_list_source(items)},\n", source, count=1)
        else:
            source = entry.sub("", source, count=1)
            source = re.sub(rf"^{name} = (\(\n.*?\n\)|.*?)\n+", "", source, count=1,
                            flags=re.S | re.M)
    return source


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dry", action="store_true", help="report only; leave known.py as it is")
    a = p.parse_args(argv)
    cases = all_cases()
    by_id = {c.id: c for c in cases}
    all_keys = keys(cases)
    results = recorded()["results"]
    names = {id(reason): name for name, reason in vars(known).items()
             if name.startswith("_") and isinstance(reason, str)}
    causes, dropped = {}, 0
    for reason, patterns in known._BY_CAUSE.items():
        status = still_failing(patterns, all_keys, results, by_id)
        kept = narrowed(patterns, status)
        if kept != list(patterns):
            causes[names[id(reason)]] = kept
            dropped += sum(len(status[pat][0]) - len(status[pat][1]) for pat in patterns)
        print(f"{names[id(reason)]:<22} {len(patterns):>4} -> {len(kept):>4} entries")
    print(f"{dropped} known outcomes now match TensorFlow")
    if causes and not a.dry:
        KNOWN_PY.write_text(rewrite(KNOWN_PY.read_text(), causes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
