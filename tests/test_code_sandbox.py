"""The code sandbox against hostile code: each attempt is contained, the harness goes on, and
the run is scored with the failure kind that says what happened."""

from __future__ import annotations

import json
import os
import socket
import textwrap
import time
from pathlib import Path

import pytest

from dsgqa import code_sandbox
from dsgqa.code_sandbox import SandboxLimits, run_code, sandbox_problem

GRAPH = Path(__file__).resolve().parents[1] / "questions" / "demo" / "apartment_dsg.json"
PROBLEM = sandbox_problem()
needs_sandbox = pytest.mark.skipif(
    PROBLEM is not None, reason=f"needs the bubblewrap package (bwrap): {PROBLEM}")
# Short limits keep the runaway cases to a second or two each.
QUICK = SandboxLimits(timeout_s=3.0, memory_mb=1024)


def run(body: str, limits: SandboxLimits = QUICK):
    return run_code(textwrap.dedent(body), GRAPH, limits)


@needs_sandbox
def test_a_solution_returns_its_value_as_json() -> None:
    done = run("""
        def solve_task(scene_graph):
            return {"objects": scene_graph.get_layer(2).num_nodes(), "ids": {1, 2}}
    """)
    assert done.ok, done
    assert done.result == '{"objects": 57, "ids": [1, 2]}'


@needs_sandbox
@pytest.mark.parametrize(("body", "kind", "said"), [
    ("def solve_task(g) return 1", "syntax", "SyntaxError"),
    ("x = 1", "no_solve_task", "solve_task"),
    ("def solve_task(g):\n    return 1 / 0", "exception", "ZeroDivisionError: division by zero"),
    ("import sys\ndef solve_task(g):\n    sys.exit(3)", "exception", "SystemExit: 3"),
    ("def solve_task(g):\n    a = []\n    a.append(a)\n    return a", "not_serialisable",
     "Circular reference"),
    ("def solve_task(g):\n    return object()", "not_serialisable", "object"),
])
def test_failures_have_their_kind(body: str, kind: str, said: str) -> None:
    done = run(body)
    assert (done.ok, done.kind) == (False, kind), done
    assert said in done.error


@needs_sandbox
def test_no_network_even_to_a_loopback_port_the_harness_listens_on() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0.2)
        port = server.getsockname()[1]
        done = run(f"""
            import socket
            def solve_task(g):
                socket.create_connection(("127.0.0.1", {port}), timeout=2).sendall(b"hi")
                return "connected"
        """)
        with pytest.raises(TimeoutError):
            server.accept()
    assert done.kind == "exception", done
    assert "Error" in done.error


@needs_sandbox
def test_sees_no_keys_results_or_harness_environment(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "results"
    results.mkdir()
    (results / "qa_results.csv").write_text("secret rows")
    monkeypatch.setenv("SANDBOX_TEST_SECRET", "s3cr3t-value")
    done = run(f"""
        import os
        def solve_task(g):
            paths = [os.path.expanduser("~/.ssh"), "/root/.ssh", {str(results)!r},
                     {str(Path.home() / ".ssh")!r}]
            try:
                init_env = open("/proc/1/environ", "rb").read().decode()
            except OSError as error:
                init_env = "denied: " + str(error)
            cwd = {str(Path.cwd())!r}
            return {{"seen": [p for p in paths if os.path.exists(p)],
                     "cwd": sorted(os.listdir(cwd)) if os.path.isdir(cwd) else [],
                     "env": dict(os.environ), "init_env": init_env}}
    """)
    assert done.ok, done
    assert "s3cr3t-value" not in done.result
    assert "SANDBOX_TEST_SECRET" not in done.result
    seen = json.loads(done.result)
    assert seen["seen"] == []
    # The harness's folder shows at most the interpreter's venv mounted inside it (when the
    # venv lives in the checkout), never the checkout's results or caches.
    assert set(seen["cwd"]) <= {".venv"}, seen["cwd"]


@needs_sandbox
def test_writes_only_to_its_private_tmpfs(tmp_path: Path) -> None:
    target = tmp_path / "written-by-model"
    done = run(f"""
        import os
        def solve_task(g):
            wrote = []
            for path in [{str(target)!r}, "/sandbox/scene_graph.json", "/outside",
                         os.__file__ + ".x", "/tmp/inside", os.path.expanduser("~/inside")]:
                try:
                    with open(path, "a") as f:
                        f.write("x")
                    wrote.append(path)
                except OSError:
                    pass
            return wrote
    """)
    assert done.ok, done
    assert done.result == '["/tmp/inside", "/home/sandbox/inside"]'
    assert not target.exists()


@needs_sandbox
def test_a_fork_loop_is_contained() -> None:
    started = time.perf_counter()
    done = run("""
        import os
        def solve_task(g):
            while True:
                os.fork()
    """)
    assert done.kind in ("exception", "timeout"), done
    assert time.perf_counter() - started < QUICK.timeout_s + 2


@needs_sandbox
def test_ten_gigabytes_is_a_memory_failure() -> None:
    done = run("def solve_task(g):\n    return len(bytearray(10 * 2**30))")
    assert done.kind == "memory", done


@needs_sandbox
def test_an_endless_loop_times_out() -> None:
    started = time.perf_counter()
    done = run("def solve_task(g):\n    while True:\n        pass",
               SandboxLimits(timeout_s=1.0, memory_mb=1024))
    assert done.kind == "timeout", done
    assert time.perf_counter() - started < 3


@needs_sandbox
def test_printing_a_hundred_megabytes_stops_at_the_cap() -> None:
    done = run("def solve_task(g):\n    print('x' * 100_000_000)\n    return 1")
    assert done.kind == "output_too_large", done
    assert len(done.output) <= 4_000


@needs_sandbox
def test_a_huge_result_is_too_large() -> None:
    done = run("def solve_task(g):\n    return 'x' * 5_000_000")
    assert done.kind == "output_too_large", done


@needs_sandbox
def test_killing_its_parent_leaves_the_harness_running() -> None:
    done = run("""
        import os, signal
        def solve_task(g):
            os.kill(os.getppid(), signal.SIGKILL)
            os.kill(1, signal.SIGKILL)
            return "still here"
    """)
    assert done.kind in ("", "exception"), done
    assert os.getpid() > 0   # this process, the harness, is alive to say so


def test_without_bubblewrap_the_run_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(code_sandbox, "bwrap_path", lambda: None)
    code_sandbox.sandbox_problem.cache_clear()
    try:
        problem = code_sandbox.sandbox_problem()
        done = run_code("def solve_task(g):\n    return 1", GRAPH)
    finally:
        code_sandbox.sandbox_problem.cache_clear()
    assert problem is not None and "bubblewrap" in problem
    assert done.kind == "sandbox_unavailable"
