"""`nlp-dsg-benchmark data fetch` (and `scripts/fetch-data.sh`): download the external data
sets the tests and benchmarks use from their public repositories.

Why each file is fetched on its own at a pinned commit and checked against the sha256 in
`data/sources.json`: the data must be exactly what the tests were written against (the
fidelity set's solutions are computed from the Hydra graph byte for byte), and a repository's
archive would also carry what we may not or need not keep (AutoPlanBench's zipped data set).
Files go under the git-ignored `data/external/`, never into the repository: the Hydra graph
is GPL-3.0. `NLP_DSG_DATA_MIRROR` (or `--mirror`) points at another server laid out like
raw.githubusercontent.com (`<owner>/<repo>/<commit>/<path>`), which is how the tests serve it
on loopback.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from benchcore.external_data import FETCHED, PROJECT_ROOT

SOURCES = PROJECT_ROOT / "data/sources.json"
DEFAULT_MIRROR = "https://raw.githubusercontent.com"
MIRROR_ENV = "NLP_DSG_DATA_MIRROR"
TIMEOUT_S = 60.0


class FetchError(RuntimeError):
    """Some files could not be fetched or did not match their sha256; one line each."""


@dataclass(frozen=True)
class DataSet:
    """One external data set: where it comes from and the sha256 of every file we use."""

    name: str
    title: str
    repository: str
    commit: str
    source_dir: str
    licence: str
    files: dict[str, str]

    def url(self, mirror: str, relative: str) -> str:
        return f"{mirror.rstrip('/')}/{self.repository}/{self.commit}/{self.source_dir}/{relative}"

    def source_note(self) -> str:
        """The SOURCE.md written beside the files: origin, commit and licence."""
        return (f"# {self.title}\n\nFetched by scripts/fetch-data.sh from "
                f"https://github.com/{self.repository} at commit {self.commit}, folder "
                f"`{self.source_dir}/` ({len(self.files)} files, each checked against its "
                f"sha256 in data/sources.json).\nLicence: {self.licence}. Kept outside the "
                "repository (data/external/ is git-ignored); do not commit it.\n")


def load_sources(path: Path = SOURCES) -> list[DataSet]:
    try:
        return [DataSet(**entry) for entry in json.loads(path.read_text())["sets"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise FetchError(f"{path}: unusable data source list: {error}") from None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fetch_one(data: DataSet, relative: str, dest: Path, mirror: str) -> tuple[str, str]:
    """('kept' | 'fetched' | 'failed', reason). A file already there with the right sha256
    is kept; a download is written to a temporary name and renamed only when it matches."""
    target = dest / relative
    expected = data.files[relative]
    if target.is_file() and _sha256(target) == expected:
        return "kept", ""
    url = data.url(mirror, relative)
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:
            body = response.read()
    except urllib.error.HTTPError as error:
        return "failed", f"{url}: HTTP {error.code}"
    except (urllib.error.URLError, OSError) as error:
        return "failed", f"{url}: {getattr(error, 'reason', error)}"
    got = hashlib.sha256(body).hexdigest()
    if got != expected:
        return "failed", f"{url}: sha256 {got[:12]}… is not the pinned {expected[:12]}…"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(body)
    partial.replace(target)
    return "fetched", ""


def fetch(sets: list[DataSet], dest: Path = FETCHED, mirror: str | None = None,
          workers: int = 8) -> dict[str, dict[str, int]]:
    """Fetch every file of `sets` under `dest/<set name>/`; counts of kept and fetched files
    per set. Raises FetchError naming every file that failed (the others are kept)."""
    if mirror is None:
        mirror = os.environ.get(MIRROR_ENV) or DEFAULT_MIRROR
    if not mirror.startswith(("http://", "https://")):
        raise FetchError(f"mirror {mirror!r}: not an http:// or https:// URL")
    counts: dict[str, dict[str, int]] = {}
    failures: list[str] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for data in sets:
            folder = dest / data.name
            results = list(pool.map(lambda rel, d=data, f=folder: _fetch_one(d, rel, f, mirror),
                                    sorted(data.files)))
            counts[data.name] = {kind: sum(r[0] == kind for r in results)
                                 for kind in ("kept", "fetched", "failed")}
            failures += [reason for kind, reason in results if kind == "failed"]
            if not counts[data.name]["failed"]:
                (folder / "SOURCE.md").write_text(data.source_note())
    if failures:
        more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
        raise FetchError(f"{len(failures)} file(s) not fetched: {failures[0]}{more}")
    return counts


def fetch_command(names: list[str] | None, dest: Path, mirror: str | None) -> int:
    """The CLI verb: one line per data set, with its licence."""
    sets = load_sources()
    unknown = sorted(set(names or []) - {s.name for s in sets})
    if unknown:
        raise FetchError(f"data fetch: unknown data set {unknown[0]!r} "
                         f"(known: {', '.join(s.name for s in sets)})")
    chosen = [s for s in sets if not names or s.name in names]
    for data in chosen:
        print(f"{data.name}: {len(data.files)} file(s) from {data.repository}@{data.commit[:8]} "
              f"({data.licence}) -> {dest / data.name}", flush=True)
    counts = fetch(chosen, dest, mirror)
    for name, count in counts.items():
        print(f"{name}: {count['fetched']} fetched, {count['kept']} already there, sha256 ok")
    return 0
