"""Content versions of a run's inputs: hashes of the files' bytes, not their names or dates.

A renamed but unchanged question set keeps its version and an edited one gets a new version
even under the same name. The results store keys every row with these (which runs are
comparable), and a finished run's record uses them to tell whether its inputs changed since.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

UNKNOWN = "unknown"
HASH_LENGTH = 12


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
    return digest.hexdigest()[:HASH_LENGTH]


def question_set_version(questions: str | None, scene_graph: str | None) -> str:
    """The QA inputs' version: the question YAML and the scene graph it asks about (a changed
    scene graph changes the right answers just as much as a changed question does)."""
    if not questions or not scene_graph:
        return UNKNOWN
    return content_hash([Path(questions), Path(scene_graph)])


def planning_data_version(data_dir: str | None, domains: list[str] | None = None) -> str:
    """The planning inputs' version: every file of the configured domains (or the whole data
    directory), hashed with its relative path so moving an instance counts as a change. The
    domains are found as the planning loader finds them (planeval.dataset): a data directory
    holding `domain.pddl` is itself the one domain."""
    if not data_dir or not Path(data_dir).is_dir():
        return UNKNOWN
    root = Path(data_dir)
    if (root / "domain.pddl").is_file() or not domains:
        tops = [root]
    else:
        tops = [root / d for d in domains]
    candidates = (p for top in tops for p in ([top] if top.is_file() else top.rglob("*")))
    files = sorted(p for p in candidates if p.is_file() and not ignored(p.relative_to(root)))
    return content_hash(files, root) if files else UNKNOWN


# Hidden files the planning loader still reads: its globs (`adapted_instances/*.pddl`) match them.
_READ_WHEN_HIDDEN = (".pddl", ".txt")


def ignored(relative: Path) -> bool:
    """Caches and editor files (`.git/`, `__pycache__/`, `.DS_Store`) are not data; a hidden
    PDDL or plan file is, since the loader reads it."""
    *folders, name = relative.parts
    if any(part.startswith((".", "__")) for part in folders):
        return True
    return name.startswith((".", "__")) and not name.endswith(_READ_WHEN_HIDDEN)
