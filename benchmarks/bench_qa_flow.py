"""QA flow figures: demo wall time fresh vs cached, and Prefect's per-task overhead.

    .venv/bin/python benchmarks/bench_qa_flow.py [--runs 3]

- demo fresh / cached: `nlp-dsg-benchmark demo` as a whole process (ephemeral Prefect API
  start included) with an empty cache dir, then again with the cache it left.
- per-task overhead: one flow submitting N no-op tasks vs calling the same function N times.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / ".venv/bin/nlp-dsg-benchmark"


def _demo(cache: Path, results: Path, home: Path) -> float:
    env = {"PREFECT_HOME": str(home), "PATH": "/usr/bin:/bin", "HOME": str(home)}
    started = time.perf_counter()
    subprocess.run([str(CLI), "demo", "--cache-dir", str(cache), "--results-dir", str(results)],
                   check=True, env=env, capture_output=True, cwd=ROOT)
    return time.perf_counter() - started


def demo_times(runs: int) -> tuple[list[float], list[float]]:
    fresh, cached = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            tmp_path = Path(tmp)
            fresh.append(_demo(tmp_path / "cache", tmp_path / "results", tmp_path / "home"))
            cached.append(_demo(tmp_path / "cache", tmp_path / "results", tmp_path / "home"))
    return fresh, cached


def task_overhead(n: int) -> tuple[float, float]:
    from prefect import flow, task
    from prefect.testing.utilities import prefect_test_harness

    def noop(i: int) -> int:
        return i

    noop_task = task(noop, name="noop", persist_result=False)

    @flow
    def many() -> None:
        futures = [noop_task.submit(i) for i in range(n)]
        for future in futures:
            future.result()

    with prefect_test_harness(server_startup_timeout=120):
        many()  # warm-up (imports, first API round trips)
        started = time.perf_counter()
        many()
        with_prefect = time.perf_counter() - started
    started = time.perf_counter()
    for i in range(n):
        noop(i)
    plain = time.perf_counter() - started
    return with_prefect / n, plain / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=200)
    args = parser.parse_args()
    fresh, cached = demo_times(args.runs)
    print(f"demo (28 QA questions; 9 planning instances: scripted model + planner), "
          f"{args.runs} runs, whole process incl. the temporary Prefect API:")
    print(f"  fresh  median {statistics.median(fresh):6.2f} s  (min {min(fresh):.2f})")
    print(f"  cached median {statistics.median(cached):6.2f} s  (min {min(cached):.2f})")
    per_task, plain = task_overhead(args.tasks)
    print(f"Prefect task overhead over {args.tasks} submitted no-op tasks: "
          f"{per_task * 1000:.1f} ms/task (plain call {plain * 1e6:.2f} us)")


if __name__ == "__main__":
    sys.exit(main())
