"""Writing generation logs: one JSONL file per instance under
`<run_dir>/plans/<experiment>/`, in the record format `planeval.evaluation` reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any


def write_generation_logs(records: list[dict[str, Any]], plans_dir: Path) -> list[Path]:
    """Replaces the folder's logs: a rerun's evaluation must not see stale ones."""
    if plans_dir.exists():
        shutil.rmtree(plans_dir)
    written = []
    for record in records:
        folder = plans_dir / record["experiment"]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{record['domain']}__{record['instance']}.jsonl"
        path.write_text(json.dumps(record, default=str) + "\n")
        written.append(path)
    return written
