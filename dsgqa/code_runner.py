"""The program that runs inside the code sandbox (`dsgqa.code_sandbox`): it sets the process
limits, loads the scene graph with spark_dsg, runs the model's code, calls
`solve_task(scene_graph)` and writes one JSON report to the result descriptor.

It runs under `python -I -S` with nothing of the project on its path, so it imports only the
standard library until it loads spark_dsg, and it must stay that way: the sandbox mounts this one
file, not the package. Every outcome is a report with a `kind` (see `code_sandbox.FAILURE_KINDS`);
an outcome it cannot report (killed, crashed) the parent classifies from how the process ended.

Its argument is one JSON object: `site` (site-packages folders to put on sys.path), `graph`
(the scene-graph path inside the sandbox), `result_fd`, `max_result_bytes`, `memory_bytes`,
`cpu_s`, `file_bytes`, `processes`, `drop_to` (a uid to switch to first, when started as root:
the kernel does not count a root user's processes against RLIMIT_NPROC). The code comes on stdin.
"""

import json
import os
import resource
import sys
import traceback


def main() -> None:
    settings = json.loads(sys.argv[1])
    result_fd = int(settings["result_fd"])
    _drop_privileges(settings.get("drop_to"))
    _limit(settings)
    code = sys.stdin.read()
    # The model's prints go to the parent's capped output pipe, never into the report.
    os.dup2(2, 1)
    sys.path[:0] = settings["site"]
    runner = os.getpid()
    report = _run(code, settings["graph"], int(settings["max_result_bytes"]))
    if os.getpid() != runner:   # a process the code forked returned here: only one reports
        os._exit(0)
    data = json.dumps(report).encode()
    with os.fdopen(result_fd, "wb") as out:
        out.write(data)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)   # no atexit handlers or finalizers of the model's objects after the report


def _drop_privileges(uid: object) -> None:
    """As root (no user namespace), become an unprivileged user so every limit applies."""
    if uid is None or os.getuid() != 0:
        return
    os.setgroups([])
    os.setgid(int(uid))   # type: ignore[arg-type]
    os.setuid(int(uid))   # type: ignore[arg-type]


def _limit(settings: dict) -> None:
    """Hard limits the model's code cannot raise again."""
    limits = {
        resource.RLIMIT_AS: int(settings["memory_bytes"]),
        resource.RLIMIT_CPU: int(settings["cpu_s"]),
        resource.RLIMIT_FSIZE: int(settings["file_bytes"]),
        resource.RLIMIT_NPROC: int(settings["processes"]),
        resource.RLIMIT_CORE: 0,
    }
    for which, value in limits.items():
        resource.setrlimit(which, (value, value))


def _failure(kind: str, error: str) -> dict:
    return {"ok": False, "kind": kind, "error": error[-1000:]}


def _last_line(error: BaseException) -> str:
    lines = traceback.format_exception_only(type(error), error)
    return (lines[-1] if lines else type(error).__name__).strip()


def _run(code: str, graph_path: str, max_result_bytes: int) -> dict:
    try:
        compiled = compile(code, "<model code>", "exec")
    except (SyntaxError, ValueError) as error:
        return _failure("syntax", _last_line(error))
    try:
        import spark_dsg
        scene_graph = spark_dsg.DynamicSceneGraph.load(graph_path)
    except MemoryError:
        return _failure("memory", "the scene graph did not load within the memory limit")
    except Exception as error:
        return _failure("sandbox_unavailable", f"cannot load the scene graph: {_last_line(error)}")
    namespace: dict = {"__name__": "__model__"}
    try:
        exec(compiled, namespace)
        solve = namespace.get("solve_task")
        if not callable(solve):
            return _failure("no_solve_task", "the code defines no function solve_task")
        value = solve(scene_graph)
    except MemoryError:
        return _failure("memory", "MemoryError: the code went over the memory limit")
    except BaseException as error:   # SystemExit and KeyboardInterrupt are the code's too
        return _failure("exception", _last_line(error))
    try:
        text = json.dumps(value, default=_plain, allow_nan=False)
    except MemoryError:
        return _failure("memory", "MemoryError while serialising the result")
    except (TypeError, ValueError, RecursionError, OverflowError) as error:
        return _failure("not_serialisable", _last_line(error))
    if len(text) > max_result_bytes:
        return _failure("output_too_large",
                        f"the result is {len(text):,} bytes as JSON, over {max_result_bytes:,}")
    return {"ok": True, "kind": "", "result": text}


def _plain(value: object) -> object:
    """What JSON lacks but a solution naturally returns: sets (sorted, so a result is one text)
    and numpy scalars or arrays."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    for method in ("tolist", "item"):
        convert = getattr(value, method, None)
        if callable(convert) and type(value).__module__.startswith("numpy"):
            return convert()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


if __name__ == "__main__":
    main()
