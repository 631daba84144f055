"""Sandbox start-up per item: the wall time of one codegen run whose code does nothing
(bwrap, the interpreter, spark_dsg's import and the demo graph's load), N runs one after
another. Goal: median <= 150 ms. Then the throughput with 8 sandboxes at once (the run-code
stage runs items on threads): runs per second and the median item's wall time.

    PYTHONPATH=. python benchmarks/bench_code_sandbox.py [N]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from dsgqa.code_sandbox import run_code, sandbox_problem

GRAPH = Path(__file__).resolve().parents[1] / "questions/demo/apartment_dsg.json"
TRIVIAL = "def solve_task(scene_graph):\n    return 1\n"


def main(runs: int = 20) -> None:
    problem = sandbox_problem()
    if problem:
        print(f"sandbox unavailable: {problem}")
        return
    run_code(TRIVIAL, GRAPH)   # warm the page cache
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        done = run_code(TRIVIAL, GRAPH)
        seconds.append(time.perf_counter() - started)
        assert done.ok, done
    ms = sorted(s * 1000 for s in seconds)
    print(f"sandbox start-up per item, {runs} runs: median {statistics.median(ms):.0f} ms, "
          f"p90 {ms[int(0.9 * (len(ms) - 1))]:.0f} ms, min {ms[0]:.0f} ms, max {ms[-1]:.0f} ms "
          "(goal: median <= 150 ms)")
    _at_once(8, 4 * runs)


def _timed_run() -> float:
    started = time.perf_counter()
    done = run_code(TRIVIAL, GRAPH)
    assert done.ok, done
    return time.perf_counter() - started


def _at_once(width: int, runs: int) -> None:
    from concurrent.futures import ThreadPoolExecutor

    started = time.perf_counter()
    with ThreadPoolExecutor(width) as pool:
        seconds = list(pool.map(lambda _: _timed_run(), range(runs)))
    wall = time.perf_counter() - started
    print(f"{width} sandboxes at once, {runs} runs: {runs / wall:.1f} runs/s, median item "
          f"{statistics.median(seconds) * 1000:.0f} ms, {wall:.1f} s in all")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
