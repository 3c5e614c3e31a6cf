"""Record TensorFlow's outcomes for every case of the sweep (run once, output checked in).

    /root/tfvenv/bin/python -m tests.differential.record_tf            # only cases not yet recorded
    /root/tfvenv/bin/python -m tests.differential.record_tf --force    # everything again
    /root/tfvenv/bin/python -m tests.differential.record_tf --only math.sin

Writes tests/differential/data/tf_results.json.gz: TF's version, the public
names of each swept namespace (to measure coverage) and, per "case@mode",
the encoded outcome.  TF can abort the process on some inputs, so cases run
in a worker process; a case that kills the worker is recorded as "TFCrash"
and the worker restarts after it.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile

from .cases import all_cases
from .coverage import NAMESPACES, public_names
from .harness import modes_for, run

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_results.json.gz")


def load(path=DATA):
    if not os.path.exists(path):
        return {"meta": {}, "results": {}}
    with gzip.open(path, "rt") as f:
        return json.load(f)


def save(data, path=DATA):
    # mtime=0 keeps the file byte-identical when nothing changed.
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())


def _worker(ids, out_path):
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")  # the sweep retraces on purpose
    cases = {c.id: c for c in all_cases()}
    with open(out_path, "a") as out:
        for cid in ids:
            case = cases[cid]
            res = {m: run(tf, case, m) for m in modes_for(case)}
            out.write(json.dumps({"id": cid, "res": res}) + "\n")
            out.flush()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--force", action="store_true", help="re-record every selected case")
    p.add_argument("--only", default=None, help="only cases whose id starts with this")
    p.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.worker:
        with open(a.worker[0]) as f:
            _worker(json.load(f), a.worker[1])
        return

    import tensorflow as tf
    data = load()
    results = data["results"]
    todo = []
    for case in all_cases():
        if a.only and not case.id.startswith(a.only):
            continue
        if a.force or any(f"{case.id}@{m}" not in results for m in modes_for(case)):
            todo.append(case.id)
    print(f"recording {len(todo)} cases", flush=True)
    cases = {c.id: c for c in all_cases()}
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "out.jsonl")
        ids_path = os.path.join(tmp, "ids.json")
        done = set()
        while True:
            rest = [c for c in todo if c not in done]
            if not rest:
                break
            with open(ids_path, "w") as f:
                json.dump(rest, f)
            env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
            rc = subprocess.call([sys.executable, "-m", "tests.differential.record_tf",
                                  "--worker", ids_path, out_path], env=env)
            with open(out_path) as f:
                for line in f:
                    rec = json.loads(line)
                    done.add(rec["id"])
                    for m, r in rec["res"].items():
                        results[f"{rec['id']}@{m}"] = r
            if rc != 0:
                crashed = next(c for c in todo if c not in done)
                print(f"TF crashed on {crashed}", flush=True)
                for m in modes_for(cases[crashed]):
                    results[f"{crashed}@{m}"] = {"err": "TFCrash", "msg": f"exit code {rc}"}
                done.add(crashed)
            print(f"{len(done)}/{len(todo)} done", flush=True)
    # Drop results of cases that left the table.
    live = {f"{c.id}@{m}" for c in all_cases() for m in modes_for(c)}
    data["results"] = {k: v for k, v in results.items() if k in live}
    data["meta"] = {"tf_version": tf.__version__,
                    "names": {ns: public_names(tf, ns) for ns in NAMESPACES}}
    save(data)
    print(f"wrote {DATA}: {len(data['results'])} outcomes")


if __name__ == "__main__":
    main()
