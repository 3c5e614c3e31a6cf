"""The full sweep from the command line, with a summary of mismatches by category.

    python -m tests.differential.run --all            # every case and mode
    python -m tests.differential.run                  # the CI subset
    python -m tests.differential.run --only math.log --verbose

Known discrepancies (known.KNOWN) are counted apart; a known entry that now
matches is reported as fixed so it can be removed.
"""
import argparse
import collections
import sys

from .cases import all_cases
from .check import check, in_ci, keys, known_reason, recorded, tf_wrong
from .compare import CATEGORIES
from .coverage import NAMESPACES, paths, public_names
from .known import NOT_SWEPT


def coverage_line(meta, cases):
    import eagerflow
    ours = paths({ns: public_names(eagerflow, ns) for ns in NAMESPACES})
    both = ours & paths(meta["names"])
    swept = {c.fn for c in cases} & both
    excluded = both & set(NOT_SWEPT)
    return (f"coverage: {len(swept)} of {len(both)} public functions in both libraries swept, "
            f"{len(excluded)} excluded with a reason, {len(both - swept - excluded)} neither; "
            f"{len(ours - paths(meta['names']))} eagerflow-only names not compared")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--all", action="store_true", help="every mode of every case (default: CI subset)")
    p.add_argument("--only", help="case ids starting with this")
    p.add_argument("--verbose", "-v", action="store_true", help="list every mismatch")
    p.add_argument("--json", help="also write the new mismatches to this file")
    a = p.parse_args(argv)
    data = recorded()
    results = data["results"]
    cases = all_cases()
    by_id = {c.id: c for c in cases}
    counts = collections.Counter()
    known_counts = collections.Counter()
    by_family = collections.defaultdict(collections.Counter)
    fixed, found = [], []
    n = 0
    for key in keys(cases):
        if a.only and not key.startswith(a.only):
            continue
        if not a.all and not in_ci(key):
            continue
        if tf_wrong(key):
            continue
        n += 1
        r = check(key, results, by_id)
        known = known_reason(key)
        if r is None:
            if known:
                fixed.append((key, known[0]))
            continue
        cat, detail = r
        if known:
            known_counts[cat] += 1
            continue
        counts[cat] += 1
        by_family[by_id[key.rsplit("@", 1)[0]].family][cat] += 1
        found.append((key, cat, detail))
    print(coverage_line(data["meta"], cases))
    print(f"{n} outcomes compared")
    print(f"{'category':<12} {'new':>6} {'known':>6}")
    for cat in CATEGORIES + ("unrecorded",):
        if counts[cat] or known_counts[cat]:
            print(f"{cat:<12} {counts[cat]:>6} {known_counts[cat]:>6}")
    print(f"{'total':<12} {sum(counts.values()):>6} {sum(known_counts.values()):>6}")
    if by_family:
        print("new mismatches by family: " + ", ".join(
            f"{fam} {sum(c.values())}" for fam, c in sorted(by_family.items())))
    if fixed:
        print(f"{len(fixed)} known entries now match (remove them from known.KNOWN):")
        for key, pat in fixed[:50]:
            print(f"  {key}  ({pat})")
    if a.json:
        import json
        with open(a.json, "w") as f:
            json.dump(found, f, indent=0)
    if a.verbose:
        for key, cat, detail in found:
            print(f"{cat:<11} {key}: {detail}")
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
