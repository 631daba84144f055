"""A record of each run that finished with no errored item, so that rerunning it with nothing
changed redoes nothing, the way `make` or `dvc repro` skip a target that is newer than its inputs.

Without it, rerunning a finished run (`rerun RUN_ID`, a retried flow run, a config with a fixed
run id) rebuilds the same files from the item cache: every item read back, scored, tabled,
recorded in the store and reported again. For 5,000 questions x 2 models that is about 5 s, a
quarter of the fresh run, to write what is already there. The record holds a digest of
everything the run's outputs depend on, the run's summary, and the size and modification time
of every file the run wrote (its run folder and its folder in the results store). A rerun whose
digest and files match reuses the run as it is.

The digest covers:
- the run's configuration (models, tracks, settings, paths, run id), except `refresh`;
- the content of its inputs: question set, scene graph, planning data, model reply scripts;
- the benchmark's own code: every file of its packages (a fix to scoring or tables redoes runs);
- the installed distributions (name and version) and the Python version;
- the results store's listing: the report compares the run with the runs around it, so a run
  recorded since then changes the report.

Left out on purpose: the LLM endpoint and keys. A finished item is never asked again anyway
(the item cache serves it), so they cannot change a finished run's outputs.

What keeps the record honest:
- the digest is taken when the run starts: an input or the code edited while it runs makes
  the record one that no later run matches;
- it lives in the cache directory (`<cache>/finished_runs/`): deleting the caches, the usual way
  to force a fresh run, deletes it too; and every file of the item and LLM caches the run left
  must still be there, none shorter (they are append-only), or a rerun goes through them;
- `refresh` bypasses it;
- a run with an errored item writes none, because its rerun must redo that item; nor does one
  with an unsettled item (a query that timed out under load, used but not kept);
- a run whose results store changed after its report read it writes none;
- a run that does not reuse forgets the record before it starts, so a run killed half way
  never leaves an old record behind that still looks valid;
- output files are compared by size and modification time, as make, ninja and git's index do:
  a table edited or deleted by hand means the run is rebuilt.

What the cache check cannot see: another run (another run id, same models and questions) that
refreshed a stage appends newer entries for the same keys in a file of its own. This run's
files are all still there, so it is reused with the answers it had; a rerun through the caches
would read the newer ones. `refresh` on this run id, or deleting its record, redoes it. The
check stats every cache file, so it grows with the cache (a few ms per thousand files).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import pickle
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from benchcore import atomic_files
from benchcore.input_versions import content_hash, planning_data_version, question_set_version
from benchcore.run_config import BenchmarkConfig
from benchcore.run_folder import STORE_DIR, STORE_RUN_FILE, STORE_RUN_PREFIX, store_run_dir
from benchcore.run_summary import RunSummary

RECORDS_DIR = "finished_runs"
# The benchmark's packages, beside this one: their files are the code a run's numbers come from.
CODE_ROOT = Path(__file__).resolve().parent.parent
CODE_PACKAGES = ("benchcore", "dsgqa", "planeval", "plangen", "reporting", "tasks", "flows",
                 "nlp_dsg_benchmark")

FileStamps = dict[str, tuple[int, int]]   # relative path -> (size, mtime_ns)
# Bumped when the record's fields change: an older record is then no record.
RECORD_FORMAT = 1


@dataclass(frozen=True)
class FinishedRun:
    """What a clean run leaves for its reruns."""

    digest: str                   # of what the run started from (`run_digest`)
    summary: RunSummary
    finished_at: str
    outputs: FileStamps           # the run folder's files
    store_outputs: FileStamps     # the run's folder in the results store
    store_listing: FileStamps     # every recorded run's run.json, as the report saw them
    cache_files: FileStamps       # the item and LLM caches' files, which only ever grow
    format: int = 0               # a record from before the field existed reads as 0


@dataclass(frozen=True)
class RunStart:
    """What the flow learns before any stage runs: the finished run to reuse, if any, and the
    digest of what this run starts from (its record must not take in what changes later)."""

    reused: RunSummary | None
    digest: str


def store_root(config: BenchmarkConfig) -> Path | None:
    """Where the flow records runs, or None when the run is not recorded."""
    return Path(config.results_dir) / STORE_DIR if config.report else None


def reuse(config: BenchmarkConfig, run_id: str, run_dir: Path) -> RunStart:
    """The run's summary when its record says nothing changed since it finished cleanly (0 LLM
    calls, nothing rewritten); else no summary, and the record is forgotten before the run
    redoes its work."""
    try:
        digest = run_digest(config, run_id)
    except Exception:   # never worth failing a run over: it then simply runs, unrecorded
        forget(config, run_dir)
        return RunStart(None, "")
    if not config.refresh:
        record = _read(_record_path(config, run_dir))
        if record is not None and _still_valid(record, config, run_id, run_dir, digest):
            return RunStart(_as_reused(record), digest)
    forget(config, run_dir)
    return RunStart(None, digest)


def reusable(config: BenchmarkConfig, run_id: str, run_dir: Path) -> RunSummary | None:
    """The run's summary when it would be reused as it is (`reuse`), without forgetting
    anything: the CLI asks before it starts Prefect (5-10 s), which such a run never needs."""
    if config.refresh:
        return None
    try:
        record = _read(_record_path(config, run_dir))
        if record is None or not _still_valid(record, config, run_id, run_dir,
                                              run_digest(config, run_id)):
            return None
    except Exception:   # any doubt: the run goes through the flow, which decides
        return None
    return _as_reused(record)


def remember(config: BenchmarkConfig, run_id: str, run_dir: Path, summary: RunSummary,
             digest: str, store_seen: FileStamps | None = None) -> bool:
    """Record a finished run (returns whether it did). `digest` is the run's at its start;
    `store_seen` the store's listing when the report read it. Not recorded: a run with an
    errored or unsettled item (its rerun must compute them again), or one whose store changed
    after its report was built (the report would be stale)."""
    if not digest or any(track is not None and (track.errors or track.unsettled)
                         for _, track in summary.tracks()):
        return False
    store = store_root(config)
    listing = store_listing(store) if store else {}
    if store is not None and listing != (store_seen or {}):
        return False
    record = FinishedRun(
        digest=digest,
        summary=summary,
        finished_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        outputs=file_stamps(run_dir),
        store_outputs=file_stamps(store_run_dir(store, run_id)) if store else {},
        store_listing=listing,
        cache_files=cache_files(config),
        format=RECORD_FORMAT,
    )
    try:   # the run's tables are written: a cache that cannot take the record fails nothing
        atomic_files.write_bytes(_record_path(config, run_dir), pickle.dumps(record))
    except OSError:
        return False
    return True


def forget(config: BenchmarkConfig, run_dir: Path) -> None:
    """Drop the run's record. One that cannot be removed would be trusted later: that error
    is raised, not passed over."""
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):   # there is none
        _record_path(config, run_dir).unlink()


def run_digest(config: BenchmarkConfig, run_id: str) -> str:
    """Digest of what a run's outputs depend on (see the module's docstring)."""
    pinned = config.model_copy(update={"run_id": run_id, "refresh": []})
    parts = {
        "config": pinned.model_dump(mode="json"),
        "inputs": input_versions(config),
        "code": code_version(),
        "installed": installed_distributions(),
        "python": sys.version,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def input_versions(config: BenchmarkConfig) -> dict[str, str]:
    """Content hashes of every file the configuration names."""
    versions: dict[str, str] = {}
    if config.qa is not None:
        versions["qa"] = question_set_version(config.qa.questions, config.qa.scene_graph)
    if config.planning is not None:
        versions["planning"] = planning_data_version(config.planning.data_dir,
                                                     config.planning.domains)
    models = [*config.models, *(config.planning.models or [] if config.planning else [])]
    for model in models:
        if model.script:
            versions[f"script:{model.script}"] = content_hash([Path(model.script)])
    return versions


def code_version() -> str:
    """Hash of every file of the benchmark's packages (sources, grammars, prompt texts), with
    their relative paths, so an added or removed module counts too."""
    root, packages = CODE_ROOT, CODE_PACKAGES
    files = sorted(
        path for package in packages for path in (root / package).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )
    return content_hash(files, root)


def installed_distributions() -> list[str]:
    """The installed distributions' metadata folder names (`kuzu-0.11.3.dist-info`), from a
    directory listing of the import path: reading every distribution's metadata
    (`importlib.metadata`) costs 150 ms, a listing a few."""
    names: set[str] = set()
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as listing:
                names.update(e.name for e in listing
                             if e.name.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
    return sorted(names)


def file_stamps(folder: Path) -> FileStamps:
    """Size and modification time of every file under `folder` (nothing when it is absent)."""
    stamps: FileStamps = {}
    for dirpath, _dirs, files in os.walk(folder):
        for name in files:
            path = Path(dirpath) / name
            try:
                stat = path.stat()
            except OSError:
                continue
            stamps[path.relative_to(folder).as_posix()] = (stat.st_size, stat.st_mtime_ns)
    return stamps


def store_listing(store: Path) -> FileStamps:
    """Every recorded run's `run.json` in the results store, by run folder."""
    listing: FileStamps = {}
    for path in Path(store).glob(f"{STORE_RUN_PREFIX}*/{STORE_RUN_FILE}"):
        try:
            stat = path.stat()
        except OSError:
            continue
        listing[path.parent.name] = (stat.st_size, stat.st_mtime_ns)
    return listing


def cache_files(config: BenchmarkConfig) -> FileStamps:
    """The item cache's and the LLM response cache's files. Both are append-only segment
    files: a file gone or shorter means entries this run used are gone, and a rerun through
    the caches would ask the model again."""
    run = config.run_options()
    stamps: FileStamps = {}
    for name, folder in (("stages", run.stage_cache_dir), ("llm", run.llm_cache_dir)):
        stamps.update({f"{name}/{path}": stamp for path, stamp in file_stamps(folder).items()})
    return stamps


def _still_valid(record: FinishedRun, config: BenchmarkConfig, run_id: str, run_dir: Path,
                 digest: str) -> bool:
    """The digest, then the files: the run's (unchanged), the store's listing (the same),
    the caches' (still there, none shorter). A record that cannot be read as this code
    writes them is no record."""
    try:
        if record.format != RECORD_FORMAT or record.digest != digest:
            return False
        store = store_root(config)
        if not _unchanged(record.outputs, run_dir):
            return False
        if store is not None and (
                not _unchanged(record.store_outputs, store_run_dir(store, run_id))
                or store_listing(store) != record.store_listing):
            return False
        return _still_cached(record.cache_files, cache_files(config))
    except Exception:
        return False


def _still_cached(recorded: FileStamps, current: FileStamps) -> bool:
    """Every cache file the run left is still there, at least as long (other runs may add
    files and entries: that takes nothing away from this run's)."""
    return all(path in current and current[path][0] >= size
               for path, (size, _mtime) in recorded.items())


def _unchanged(stamps: FileStamps, folder: Path) -> bool:
    """Every recorded file is still there with its size and modification time (files added
    since, such as notes, do not matter)."""
    for relative, stamp in stamps.items():
        try:
            stat = (folder / relative).stat()
        except OSError:
            return False
        if (stat.st_size, stat.st_mtime_ns) != stamp:
            return False
    return True


def _as_reused(record: FinishedRun) -> RunSummary:
    """The finished run's summary, saying it was reused: no LLM call and no item stage ran."""
    tracks = {name: None if track is None else
              replace(track, llm_calls={key: 0 for key in track.llm_calls})
              for name, track in record.summary.tracks()}
    return replace(record.summary, qa=tracks["qa"], planning=tracks["planning"],
                   reused_finished_at=record.finished_at)


def _record_path(config: BenchmarkConfig, run_dir: Path) -> Path:
    """One record per run folder (an absolute path: the same run id under two results folders
    is two runs)."""
    name = hashlib.sha256(str(Path(run_dir).resolve()).encode()).hexdigest()[:24]
    return Path(config.cache_dir) / RECORDS_DIR / f"{name}.pkl"


def _read(path: Path) -> FinishedRun | None:
    """A record that cannot be read back (cut short, or from other code) is no record."""
    try:
        record = pickle.loads(path.read_bytes())
    except Exception:
        return None
    return record if isinstance(record, FinishedRun) else None

