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
import hashlib
import importlib.util
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

from benchcore.run_folder import CONFIG_FILE

UNKNOWN = "unknown"
_HASH_LENGTH = 12
_TIMESTAMP_ID = re.compile(r"^(\d{8}T\d{6})")


def content_hash(paths: Iterable[Path], root: Path | None = None) -> str:
    """Hash of the files' bytes, in order (with their paths relative to `root` when given);
    "unknown" if one is missing, because a partial hash would look like a real version."""
    digest = hashlib.sha256()
    for path in paths:
        if not path.is_file():
            return UNKNOWN
        if root is not None:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:_HASH_LENGTH]


def question_set_version(questions: str | None, scene_graph: str | None) -> str:
    """The QA inputs' version: the question YAML and the scene graph it asks about (a changed
    scene graph changes the right answers just as much as a changed question does)."""
    if not questions or not scene_graph:
        return UNKNOWN
    return content_hash([Path(questions), Path(scene_graph)])


def planning_data_version(data_dir: str | None, domains: list[str] | None = None) -> str:
    """The planning inputs' version: every file of the configured domains (or the whole data
    directory), hashed with its relative path so moving an instance counts as a change."""
    if not data_dir or not Path(data_dir).is_dir():
        return UNKNOWN
    root = Path(data_dir)
    tops = [root / d for d in domains] if domains else [root]
    candidates = (p for top in tops for p in ([top] if top.is_file() else top.rglob("*")))
    files = sorted(p for p in candidates if p.is_file() and not _hidden(p.relative_to(root)))
    return content_hash(files, root) if files else UNKNOWN


def _hidden(relative: Path) -> bool:
    """Caches and editor files (`.git`, `__pycache__`) are not data."""
    return any(part.startswith((".", "__")) for part in relative.parts)


def qa_prompt_hash() -> str:
    """Hash of the QA prompt templates, the same one the QA stages put into their cache keys."""
    try:
        from dsgqa.prompts import CYPHER_TEMPLATES, REFINE_TEMPLATES, prompt_hash
    except ImportError:
        return UNKNOWN
    return prompt_hash(*CYPHER_TEMPLATES, *REFINE_TEMPLATES)[:_HASH_LENGTH]


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
