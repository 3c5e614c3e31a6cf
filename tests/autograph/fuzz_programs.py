"""A long differential run of generated programs: ``tf.function`` against plain Python.

    python tests/autograph/fuzz_programs.py --examples 5000 [--seed N] [--out FILE]

Each program that differs is printed with its inputs and both outcomes
(hypothesis shrinks it first); the run stops at the first one unless
``--keep-going`` is given, in which case every distinct failure is listed.
"""
import argparse
import logging
import os
import sys

from hypothesis import HealthCheck, Phase, given, settings, seed as hypothesis_seed

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "src"))

from tests.autograph import programs  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep-going", action="store_true")
    args = parser.parse_args()
    logging.getLogger("tensorflow").setLevel(logging.ERROR)
    failures, checked = [], [0]

    @settings(max_examples=args.examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.generate] if args.keep_going else list(Phase))
    @given(programs.programs(), programs.inputs)
    def run(source, cases):
        checked[0] += 1
        difference = programs.check(source, cases)
        if difference is not None:
            if not args.keep_going:
                raise AssertionError(f"{difference}\n{source}")
            failures.append((difference, source))
            print(f"--- difference {len(failures)}\n{difference}\n{source}", flush=True)

    if args.seed is not None:
        run = hypothesis_seed(args.seed)(run)
    run()
    print(f"{checked[0]} programs checked, {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
