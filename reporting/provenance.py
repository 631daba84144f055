"""Where a run's numbers come from: content hashes of its inputs, the prompts, the code commit
and the run's date.

These are the keys that make two runs comparable (or explain why they differ). Versions are
content hashes rather than file names or dates, so a renamed but unchanged question set keeps its
version and an edited one gets a new version even under the same name. Everything is computed
when the run is recorded, which the flow does right after the run, in the run's own working
directory: relative paths in the run's config resolve the same way the run resolved them.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import re
import subprocess
from pathlib import Path

from benchcore.input_versions import HASH_LENGTH, UNKNOWN, content_hash
from benchcore.run_folder import CONFIG_FILE

_TIMESTAMP_ID = re.compile(r"^(\d{8}T\d{6})")


def qa_prompt_hash() -> str:
    """Hash of the QA prompt templates, the same one the QA stages put into their cache keys."""
    try:
        from dsgqa.prompts import CYPHER_TEMPLATES, REFINE_TEMPLATES, prompt_hash
    except ImportError:
        return UNKNOWN
    return prompt_hash(*CYPHER_TEMPLATES, *REFINE_TEMPLATES)[:HASH_LENGTH]


def planning_prompt_hash() -> str:
    """Hash of the planning prompts; they are written in code (`plangen.prompts`, with the natural
    language domain descriptions of `plangen.describe_nl`), so the modules' source is hashed."""
    files = []
    for module in ("plangen.prompts", "plangen.describe_nl"):
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            return UNKNOWN
        files.append(Path(spec.origin))
    return content_hash(files)


CODE_ROOT = Path(__file__).resolve().parent.parent


def git_commit(cwd: Path | None = None) -> str:
    """`git rev-parse HEAD` of the benchmark's own checkout (the code that ran, wherever the
    run was started from), or "unknown" outside a repository."""
    cwd = cwd or CODE_ROOT
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return UNKNOWN
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else UNKNOWN


def run_date(run_id: str, run_dir: Path) -> dt.datetime:
    """When the run started: the timestamp a default run id begins with (the schedule's time, so
    a retried nightly keeps its date), else when its config was written."""
    match = _TIMESTAMP_ID.match(run_id)
    if match:
        return dt.datetime.strptime(match.group(1), "%Y%m%dT%H%M%S").replace(tzinfo=dt.UTC)
    marker = run_dir / CONFIG_FILE
    stamp = (marker if marker.exists() else run_dir).stat().st_mtime
    return dt.datetime.fromtimestamp(stamp, tz=dt.UTC)
