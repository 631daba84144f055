"""A child process that answers untrusted Cypher on a read-only Kuzu/Ladybug database.

Why a process: Kuzu's buffer pool caps paths and joins, but some expressions allocate outside
it (`UNWIND range(1, 100000000)` took 24 GB here and was OOM-killed despite a 256 MB pool and a
2 s query timeout, which is only checked between operator batches). In a child process an address
-space limit turns that into a `bad_alloc` error, and a query that ignores the timeout can be
killed without touching the benchmark run.

Protocol: one JSON object per line. The parent starts `python -m dsgqa.graphstore.query_worker
SPEC`; the worker answers `{"ready": true}` (or an error), then for each request
`{"cypher", "timeout_ms", "max_rows"}` one response `{"ok": true, "columns", "rows",
"truncated"}` or `{"ok": false, "error"}`. The write guard runs in the parent, before this.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from typing import Any, TextIO

from dsgqa.dialect.functions import register_udfs
from dsgqa.graphstore.base import one_line, plain_value
from dsgqa.graphstore.engine import import_engine
from dsgqa.graphstore.row_reader import RowReader


def _address_space_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _cap_memory(extra_bytes: int) -> None:
    """Allow `extra_bytes` beyond what the open database already reserved (Kuzu maps its whole
    `max_db_size` up front, so a plain RLIMIT_AS would be meaningless without the baseline)."""
    if extra_bytes <= 0:
        return
    limit = _address_space_bytes() + extra_bytes
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_query(conn: Any, cypher: str, timeout_ms: int, max_rows: int,
              distinct_rows: bool = False) -> dict[str, Any]:
    """Execute one statement; read at most `max_rows + 1` rows to know whether it was cut
    (repeated rows not counted when `distinct_rows`)."""
    try:
        conn.set_query_timeout(max(1, int(timeout_ms)))
        result = conn.execute(cypher)
        if isinstance(result, list):  # several statements: the guard should have refused it
            for part in result:
                part.close()
            return {"ok": False, "error": "only one statement per query is allowed"}
        try:
            columns = [str(c) for c in result.get_column_names()]
            rows = RowReader(max_rows, distinct_rows)
            while result.has_next() and not rows.full:
                rows.add(plain_value(result.get_next()))
        finally:
            result.close()
        return {"ok": True, "columns": columns, "rows": rows.kept, "truncated": rows.truncated}
    except Exception as exc:  # every engine error is an answer about the query
        return {"ok": False, "error": one_line(exc)}


#: The engines' own largest variable-length bound; a query written in their dialect, with no
#: bound, stops there. Only a translated query that needs more gets more, for itself
#: (`Translation.max_hops`): the engines walk every level up to the bound, so a larger
#: default would slow every unbounded trail (0.3 s at 30 levels, over 10 s at 1,000).
DEFAULT_MAX_HOPS = 30


def _set_max_hops(conn: Any, hops: int) -> int:
    conn.execute(f"CALL var_length_extend_max_depth={int(hops)}")
    return int(hops)


def _send(channel: TextIO, message: dict[str, Any]) -> None:
    channel.write(json.dumps(message, default=str) + "\n")
    channel.flush()


def serve(spec: dict[str, Any], requests: TextIO, channel: TextIO) -> None:
    try:
        engine = import_engine(spec["backend"])
        database = engine.Database(
            spec["db_path"], read_only=True, buffer_pool_size=spec["buffer_pool_bytes"],
            max_db_size=spec["max_db_size"], max_num_threads=spec.get("threads", 2),
        )
        conn = engine.Connection(database)
        register_udfs(conn)  # Neo4j functions the translator calls (dsgqa.dialect.functions)
        _cap_memory(spec["heap_bytes"])
    except Exception as exc:  # reported to the parent as a start-up failure
        _send(channel, {"ready": False, "error": one_line(exc)})
        return
    _send(channel, {"ready": True})
    depth = DEFAULT_MAX_HOPS
    for line in requests:
        request = json.loads(line)
        wanted = request.get("max_hops") or DEFAULT_MAX_HOPS
        if wanted != depth:
            depth = _set_max_hops(conn, wanted)
        _send(channel, run_query(conn, request["cypher"], request["timeout_ms"],
                                 request["max_rows"], request.get("distinct_rows", False)))


def main() -> None:
    # The protocol gets its own copy of stdout; fd 1 then points at stderr, so anything the
    # engine prints cannot corrupt a response line.
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    serve(json.loads(sys.argv[1]), sys.stdin, channel)


if __name__ == "__main__":
    main()
