"""The benchmark flow in a process of its own, for tests that kill it (kill -9) mid-run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benchcore.run_config import BenchmarkConfig


def start_flow_process(config: BenchmarkConfig, cwd: Path) -> subprocess.Popen:
    """Start the flow on `config` in a new process group (killable as a whole), reporting to
    the test session's Prefect API."""
    from prefect.settings import PREFECT_API_URL

    config_file = cwd / f"{config.run_id}.json"
    config_file.write_text(config.model_dump_json())
    env = {**os.environ, "PREFECT_API_URL": PREFECT_API_URL.value(),
           "PREFECT_LOGGING_LEVEL": "ERROR"}
    return subprocess.Popen(
        [sys.executable, "-c", "import sys; from benchcore.run_config import "
         "BenchmarkConfig; from flows.benchmark import nlp_dsg_benchmark; "
         "nlp_dsg_benchmark(BenchmarkConfig.model_validate_json(open(sys.argv[1]).read()))",
         str(config_file)],
        env=env, cwd=cwd, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
