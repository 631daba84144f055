"""Writing generation logs: one JSONL file per instance under
`<run_dir>/plans/<experiment folder>/`, in the record format `planeval.evaluation` reads. The
folder is the experiment's file name (`benchcore.file_names`): two experiments whose names
differ only in characters a file name cannot hold must not share one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from benchcore import atomic_files
from benchcore.file_names import file_name


def write_generation_logs(records: list[dict[str, Any]], plans_dir: Path) -> list[Path]:
    """Replaces the folder's logs: a rerun's evaluation must not see stale ones."""
    if plans_dir.exists():
        shutil.rmtree(plans_dir)
    written = []
    for record in records:
        folder = plans_dir / file_name(record["experiment"])
        path = folder / file_name(record["domain"], record["instance"], suffix=".jsonl")
        atomic_files.write_text(path, json.dumps(record, default=str) + "\n")
        written.append(path)
    return written
