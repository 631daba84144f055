"""Both embedded engines, each in its own interpreter, run side by side over the same jobs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ("kuzu", "ladybug")
LADYBUG_PYTHON = os.environ.get("LADYBUG_PYTHON", sys.executable)


def run_engines(jobs: list[dict[str, Any]], backends: tuple[str, ...] = BACKENDS,
                timeout: float = 3600) -> dict[str, list[list[dict[str, Any]]]]:
    """backend -> per job, per query, the worker's result (see `engine_worker`). The workers
    read the jobs from a file and write to files, so neither waits on the other's pipe."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    with tempfile.TemporaryDirectory(prefix="cypher-fuzz-jobs-") as scratch:
        jobs_file = Path(scratch) / "jobs.json"
        jobs_file.write_text(json.dumps(jobs))
        procs = {}
        for backend in backends:
            python = LADYBUG_PYTHON if backend == "ladybug" else sys.executable
            out = open(Path(scratch) / f"{backend}.out", "w")  # noqa: SIM115
            err = open(Path(scratch) / f"{backend}.err", "w")  # noqa: SIM115
            procs[backend] = (subprocess.Popen(
                [python, "-m", "tests.cypher_fuzz.engine_worker", "--backend", backend,
                 "--jobs", str(jobs_file)], stdout=out, stderr=err, env=env, cwd=ROOT), out, err)
        results: dict[str, list[list[dict[str, Any]]]] = {}
        for backend, (proc, out, err) in procs.items():
            code = proc.wait(timeout=timeout)
            out.close()
            err.close()
            text = (Path(scratch) / f"{backend}.out").read_text()
            table: list[list[dict[str, Any]]] = [[{} for _ in job["queries"]] for job in jobs]
            for line in text.splitlines():
                if line.startswith("{"):
                    row = json.loads(line)
                    table[row["job"]][row["index"]] = row
            missing = sum(1 for job in table for r in job if not r)
            if code != 0 or missing:
                tail = (Path(scratch) / f"{backend}.err").read_text()[-2000:]
                raise RuntimeError(f"{backend} worker failed (exit {code}, {missing} results "
                                   f"missing): {tail}")
            results[backend] = table
    return results
