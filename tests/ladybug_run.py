"""Running project modules on Ladybug in a fresh interpreter.

Kuzu and Ladybug ship C++ libraries with the same symbols and must never share a process. The
product never loads either into its own (stores build and query in child processes), so a test
may open a Ladybug store directly; the engine modules with a command line
(`dsgqa.fidelity_check`, `dsgqa.engine_rows`) run here as `python -m <module>` under this very
environment (both engines are core dependencies) or the one LADYBUG_PYTHON names. Each test
module starts them once for all its cases, which keeps the Ladybug halves to a few seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
LADYBUG_PYTHON = os.environ.get("LADYBUG_PYTHON", sys.executable)


def require_ladybug() -> None:
    """Skip when the interpreter has no ladybug; in CI (CI=true) fail instead, because CI
    installs it and a silent skip would hide that the Ladybug half never ran."""
    probe = subprocess.run([LADYBUG_PYTHON, "-c", "import ladybug"], capture_output=True,
                           text=True)
    if probe.returncode == 0:
        return
    last = (probe.stderr.strip().splitlines() or ["no output"])[-1]
    reason = f"ladybug cannot be imported by {LADYBUG_PYTHON}: {last}"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def run_json_lines(module: str, *args: str, stdin: str | None = None,
                   timeout: float = 900) -> list[dict[str, Any]]:
    """`python -m module args` under LADYBUG_PYTHON with the project first on the path; the
    JSON objects it prints, one a line."""
    require_ladybug()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    run = subprocess.run([LADYBUG_PYTHON, "-m", module, *args], input=stdin,
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout)
    results = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert results, f"{module} gave no results: {run.stderr[-2000:]}"
    return results
