"""Runs model-written Python against a scene graph in a bubblewrap sandbox, never in the
harness process.

Why each part:
- a child process under bwrap, with no network (`--unshare-net`), its own PID namespace
  (`--unshare-pid`: its processes die with it; `--die-with-parent`: with the harness too), IPC
  and hostname; a read-only root holding only the interpreter and its standard library, the
  venv's site-packages, the system libraries they link against and the one scene-graph file;
  a private tmpfs as HOME and /tmp. Nothing else of the machine (results, caches, the project,
  keys) exists inside;
- an environment of a few fixed variables, also for bwrap itself: its PID 1 inside the
  sandbox keeps the environment bwrap was started with, readable at /proc/1/environ;
- limits the code cannot raise (set by `code_runner` before it runs the code): CPU seconds,
  address space, file size, processes; and a wall-clock timeout enforced here;
- the report comes back as JSON on its own pipe, read up to a cap; the code's prints on
  another, also capped, so neither can flood the harness.

Run as root (a container), bwrap gets no user namespace and the runner drops to `nobody`
itself: the kernel never counts root's processes against RLIMIT_NPROC.

Pure library (no Prefect): the run-code stage calls `run_code`; `sandbox_problem` says in one
line why a machine cannot sandbox, so the codegen pipeline refuses to start instead of
running model code unsandboxed.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import site
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RUNNER = Path(__file__).with_name("code_runner.py")
# Failure kinds of the run-code stage, '' for success (`no_code` is the extraction's).
FAILURE_KINDS = ("no_code", "syntax", "no_solve_task", "exception", "timeout", "memory",
                 "output_too_large", "not_serialisable", "sandbox_unavailable")
NOBODY = 65534
_INSIDE_GRAPH = "/sandbox/scene_graph.json"
_INSIDE_RUNNER = "/sandbox/runner.py"
_SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin")
_SYSTEM_FILES = ("/etc/ld.so.cache",)
# The model's prints are kept up to this much for the record (the rest is read and dropped
# until `max_output_bytes`, past which the run stops).
_KEPT_PRINTS = 4_000


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot create its namespaces here."""


@dataclass(frozen=True)
class SandboxLimits:
    """Per run. `processes` counts threads too, above those the user already runs."""

    timeout_s: float = 60.0
    memory_mb: int = 2048
    file_mb: int = 16
    processes: int = 32
    max_output_bytes: int = 1_000_000
    max_code_bytes: int = 200_000


@dataclass(frozen=True)
class CodeRun:
    """One run's outcome: `result` is the JSON text of what solve_task returned (when `ok`),
    `kind` one of `FAILURE_KINDS` otherwise, `error` a line saying what happened."""

    ok: bool
    kind: str = ""
    result: str = ""
    error: str = ""
    output: str = ""
    seconds: float = 0.0


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


@cache
def sandbox_problem() -> str | None:
    """None when a sandbox can run here, else one line saying why not (once per process)."""
    bwrap = bwrap_path()
    if bwrap is None:
        return ("bubblewrap (bwrap) is not installed: the codegen pipeline runs model code only "
                "in its sandbox (apt-get install bubblewrap)")
    try:
        probe = subprocess.run(
            [bwrap, *_mounts(None), *_namespaces(), "--", _interpreter(), "-I", "-S", "-c",
             "pass"], capture_output=True, text=True, timeout=30, env=_environment())
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap cannot start: {error}"
    if probe.returncode != 0:
        said = " ".join(probe.stderr.split())[:300] or f"exit code {probe.returncode}"
        return f"bubblewrap cannot create its sandbox here: {said}"
    return None


class CodegenRefused(RuntimeError):
    """A run with the codegen pipeline on a machine that cannot sandbox: one line."""


def refuse_unsandboxed(qa: object) -> None:
    """Raise `CodegenRefused` when `qa` (a QAConfig) runs the codegen pipeline and this machine
    cannot sandbox: before any paid call, and never a fallback to running code unsandboxed."""
    pipelines = getattr(qa, "pipelines", None) or []
    if not any(getattr(p, "kind", p) == "codegen" for p in pipelines):
        return
    problem = sandbox_problem()
    if problem is not None:
        raise CodegenRefused(f"codegen pipeline refused: {problem}")


def run_code(code: str, graph_path: str | Path,
             limits: SandboxLimits = SandboxLimits()) -> CodeRun:
    """Run `code` (which defines solve_task) against the scene graph at `graph_path`."""
    started = time.perf_counter()
    bwrap = bwrap_path()
    if bwrap is None:
        return CodeRun(False, "sandbox_unavailable", error="bubblewrap (bwrap) is not installed")
    if len(code.encode()) > limits.max_code_bytes:
        return CodeRun(False, "output_too_large",
                       error=f"the code is over {limits.max_code_bytes:,} bytes")
    graph = Path(graph_path)
    if not graph.is_file():
        return CodeRun(False, "sandbox_unavailable", error=f"{graph}: no such scene-graph file")
    result_r, result_w = os.pipe()
    extra_fds: list[int] = []
    settings = {
        "site": _site_packages(), "graph": _INSIDE_GRAPH, "result_fd": result_w,
        "max_result_bytes": limits.max_output_bytes,
        "memory_bytes": limits.memory_mb * 2**20, "cpu_s": max(1, int(limits.timeout_s) + 1),
        "file_bytes": limits.file_mb * 2**20,
        "processes": _threads_of(NOBODY if os.geteuid() == 0 else os.getuid())
        + limits.processes,
        "drop_to": NOBODY if os.geteuid() == 0 else None,
    }
    command = [bwrap, *_mounts(graph, extra_fds), *_namespaces(), "--",
               _interpreter(), "-I", "-S", _INSIDE_RUNNER, json.dumps(settings)]
    try:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=(result_w, *extra_fds), env=_environment(), start_new_session=True)
    except OSError as error:
        for fd in (result_r, result_w, *extra_fds):
            os.close(fd)
        return CodeRun(False, "sandbox_unavailable", error=f"bubblewrap cannot start: {error}")
    for fd in (result_w, *extra_fds):
        os.close(fd)
    try:
        read = _Reader(process, result_r, limits, started)
        read.send(code.encode())
        read.until_done()
    finally:
        _stop(process)
        os.close(result_r)
    return read.outcome(time.perf_counter() - started)


class _Reader:
    """Reads the report and the prints within the wall-clock limit and the size caps."""

    def __init__(self, process: subprocess.Popen, result_fd: int, limits: SandboxLimits,
                 started: float) -> None:
        self.process, self.result_fd, self.limits = process, result_fd, limits
        self.deadline = started + limits.timeout_s
        self.report, self.prints = bytearray(), bytearray()
        self.printed = 0
        self.stopped_for = ""

    def send(self, code: bytes) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(code)
            self.process.stdin.close()
        except (BrokenPipeError, OSError):
            pass   # the sandbox never started: its output says why

    def until_done(self) -> None:
        assert self.process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.result_fd, selectors.EVENT_READ, "report")
            selector.register(self.process.stdout.fileno(), selectors.EVENT_READ, "prints")
            while selector.get_map():
                left = self.deadline - time.perf_counter()
                if left <= 0:
                    self.stopped_for = "timeout"
                    return
                for key, _ in selector.select(timeout=left):
                    chunk = os.read(key.fd, 65536)
                    if not chunk:
                        selector.unregister(key.fd)
                    elif not self._take(key.data, chunk):
                        self.stopped_for = "output_too_large"
                        return
        try:
            self.process.wait(timeout=max(0.1, self.deadline - time.perf_counter()))
        except subprocess.TimeoutExpired:
            self.stopped_for = "timeout"

    def _take(self, stream: str, chunk: bytes) -> bool:
        """Keep a chunk; False once a stream is over its cap."""
        if stream == "report":
            self.report += chunk
            return len(self.report) <= self.limits.max_output_bytes + 4096
        self.printed += len(chunk)
        if len(self.prints) < _KEPT_PRINTS:
            self.prints += chunk[:_KEPT_PRINTS - len(self.prints)]
        return self.printed <= self.limits.max_output_bytes

    def outcome(self, seconds: float) -> CodeRun:
        printed = self.prints.decode(errors="replace")
        if self.stopped_for == "timeout":
            return CodeRun(False, "timeout", error=f"no result within {self.limits.timeout_s:g} "
                           "s (wall clock)", output=printed, seconds=seconds)
        if self.stopped_for == "output_too_large":
            return CodeRun(False, "output_too_large", error="the code wrote more than "
                           f"{self.limits.max_output_bytes:,} bytes", output=printed,
                           seconds=seconds)
        if self.report:
            try:
                report = json.loads(self.report)
                return CodeRun(bool(report["ok"]), str(report.get("kind", "")),
                               str(report.get("result", "")), str(report.get("error", "")),
                               printed, seconds)
            except (ValueError, KeyError, TypeError):
                return CodeRun(False, "exception", error="the sandbox's report is unreadable",
                               output=printed, seconds=seconds)
        return _no_report(self.process.returncode, printed, seconds)


def _no_report(code: int | None, printed: str, seconds: float) -> CodeRun:
    """The runner ended without a report: bwrap failed, or the code's process was killed."""
    if printed.startswith("bwrap:"):
        return CodeRun(False, "sandbox_unavailable", error=printed.splitlines()[0][:300],
                       seconds=seconds)
    if code in (-signal.SIGXCPU, 128 + signal.SIGXCPU, -signal.SIGKILL, 128 + signal.SIGKILL):
        # bwrap's PID 1 reports its child's death by signal as 128 + the signal.
        kind = "timeout" if code in (-signal.SIGXCPU, 128 + signal.SIGXCPU) else "memory"
        return CodeRun(False, kind, error=f"the code's process was killed (exit code {code})",
                       output=printed, seconds=seconds)
    tail = printed.strip().splitlines()[-1:] or [f"exit code {code}"]
    return CodeRun(False, "exception",
                   error=f"the code ended the process without a result: {tail[0][:300]}",
                   output=printed, seconds=seconds)


def _stop(process: subprocess.Popen) -> None:
    """Kill bwrap and its session (its PID 1 takes every process of the sandbox with it)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    for stream in (process.stdin, process.stdout):
        if stream is not None and not stream.closed:
            stream.close()


def _threads_of(uid: int) -> int:
    """Threads the user runs now: RLIMIT_NPROC counts them all, not only the sandbox's."""
    count = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines()
                          if ":" in line)
        except OSError:
            continue
        if fields.get("Uid", "").split()[:1] == [str(uid)]:
            count += int(fields.get("Threads", "1").strip() or 1)
    return count


@cache
def _interpreter() -> str:
    """The real interpreter (a venv's python is a symlink to it)."""
    return os.path.realpath(sys.executable)


@cache
def _site_packages() -> list[str]:
    paths = [*site.getsitepackages(), sysconfig.get_paths()["purelib"],
             sysconfig.get_paths()["platlib"]]
    return [p for p in dict.fromkeys(os.path.realpath(p) for p in paths) if os.path.isdir(p)]


@cache
def _read_only_trees() -> tuple[str, ...]:
    """The interpreter's prefix (stdlib, lib-dynload) and the site-packages, each once."""
    trees = [os.path.realpath(sys.base_prefix), *_site_packages(),
             os.path.dirname(_interpreter())]
    kept: list[str] = []
    for tree in sorted(set(trees), key=len):
        if not any(tree == k or tree.startswith(k + os.sep) for k in kept):
            kept.append(tree)
    return tuple(kept)


def _mounts(graph: Path | None, fds: list[int] | None = None) -> list[str]:
    # The private tmpfs folders first: a read-only tree below /tmp (a checkout and its venv
    # under /tmp, as a CI clone may be) is bound on top of them, not hidden by them.
    args: list[str] = ["--perms", "1777", "--tmpfs", "/tmp", "--perms", "1777", "--tmpfs",
                       "/home/sandbox"]
    for path in _SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in _SYSTEM_FILES:
        if os.path.isfile(path):
            args += ["--ro-bind", path, path]
    made: set[str] = set()
    for tree in _read_only_trees():
        if tree != "/usr" and not tree.startswith("/usr/"):   # /usr is bound whole
            args += [*_parents(tree, made), "--ro-bind", tree, tree]
    args += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "0755", "--dir", "/sandbox", "--ro-bind", str(RUNNER), _INSIDE_RUNNER]
    if graph is not None:
        args += _graph_mount(graph, [] if fds is None else fds)
    return [*args, "--remount-ro", "/", "--chdir", "/tmp"]


def _graph_mount(graph: Path, fds: list[int]) -> list[str]:
    """The scene-graph file, read-only. Bound in place when the sandbox's user may read it;
    else (a private file, the runner being `nobody`) copied in from a descriptor opened here,
    which `fds` collects for the caller to pass on and close."""
    if os.geteuid() != 0 or graph.stat().st_mode & 0o004:
        return ["--ro-bind", str(graph.resolve()), _INSIDE_GRAPH]
    fd = os.open(graph, os.O_RDONLY)
    fds.append(fd)
    return ["--perms", "0444", "--ro-bind-data", str(fd), _INSIDE_GRAPH]


def _parents(path: str, made: set[str]) -> list[str]:
    """Folders above a mount, traversable by the unprivileged user (bwrap makes them 0700)."""
    args: list[str] = []
    for parent in reversed(Path(path).parents[:-1]):
        if str(parent) not in made:
            made.add(str(parent))
            args += ["--perms", "0755", "--dir", str(parent)]
    return args


def _namespaces() -> list[str]:
    args = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--clearenv",
            *(arg for name, value in _variables().items()
              for arg in ("--setenv", name, value))]
    if os.geteuid() == 0:   # the runner switches to nobody itself (see the module docstring)
        return [*args, "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return [*args, "--unshare-user"]


def _variables() -> dict[str, str]:
    """The sandbox's whole environment."""
    return {"HOME": "/home/sandbox", "TMPDIR": "/tmp", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _environment() -> dict[str, str]:
    """bwrap's own environment: no more than the sandbox's."""
    return _variables()
