"""Who an engine's error charges: the model (`runtime`, `syntax`, `schema`) only where Neo4j
would fail the same query too; the engine's own failures on a valid query are `dialect`."""

from __future__ import annotations

import pytest

from dsgqa.graphstore.error_kind import engine_error_kind
from dsgqa.graphstore.kuzu_store import _death
from dsgqa.graphstore.worker_pool import WorkerDied


@pytest.mark.parametrize(("error", "kind"), [
    # Neo4j raises these as well.
    ("Runtime exception: Divide by zero.", "runtime"),
    ("Runtime exception: Modulo by zero.", "runtime"),
    ("Overflow exception: Value 9223372036854775807 + 1 is not within INT64 range.", "runtime"),
    ("Runtime exception: Step of range cannot be 0.", "runtime"),
    ("Runtime exception: ValueError: percentile 1.5 is not between 0.0 and 1.0 At: ...",
     "runtime"),
    ("Runtime exception: ValueError: Precision argument to 'round()' cannot be negative At: ..",
     "runtime"),
    ("Runtime exception: ValueError: Rounding necessary At: ...", "runtime"),
    ("Runtime exception: ValueError: / by zero At: ...", "runtime"),
    ("Runtime exception: The number of rows to skip/limit must be a non-negative integer.",
     "runtime"),
    # The memory cap: a resource limit, neither side's error.
    ("query exceeded the memory limit (512 MB): std::bad_alloc", "memory"),
    ("query exceeded the memory limit (2048 MB): Buffer manager exception: Unable to allocate "
     "memory! The buffer pool is full and no memory could be freed!", "memory"),
    # The engine's failures on a query Neo4j runs.
    ("Overflow exception: Value nan is not within INT64 range", "dialect"),
    ("Runtime exception: ValueError: toIntegerOrNull() of a text beyond the 64-bit range (NULL "
     "or an error in Neo4j, not settled here) At: ...", "dialect"),
    ("Runtime exception: ValueError: a division by the integer 0 that Neo4j may not evaluate "
     "(an AND or OR, a quantifier that may stop before it, or a lambda in a lazy branch) At: "
     "...", "dialect"),
    ("Overflow exception: Value 100000000000000000000.000000 is not within INT64 range",
     "dialect"),
    ("Runtime exception: ValueError: no engine equivalent: a zero-length shortest path (*0..) "
     "from a node to itself At: ...", "dialect"),
    ("Runtime exception: ValueError: The shortest path algorithm does not work when the start "
     "and end nodes are the same At: ...", "runtime"),
    ("Cannot evaluate expression with type PROPERTY.", "dialect"),
    ("Cannot evaluate expression with type AGGREGATE_FUNCTION.", "dialect"),
    ("Runtime exception: Unable to construct a hash join without any join condition", "dialect"),
    ("Conversion exception: Value R1 is not a valid boolean", "dialect"),
    ("Conversion exception: Unsupported casting function from BOOL to DOUBLE.", "dialect"),
    ("Parser exception: extraneous input", "dialect"),
    ("Binder exception: Function ABS did not receive correct arguments", "dialect"),
    ("query worker died: the engine crashed (SIGSEGV)", "dialect"),
    ("something no one has seen before", "dialect"),
    # Neo4j raises these too, but only on rows it evaluates; the engines may evaluate more.
    ("Runtime exception: ValueError: Neo4j raises: left() with a negative length (-3) At: ...",
     "dialect"),
    ("Runtime exception: ValueError: Neo4j raises: substring() with a NULL start At: ...",
     "dialect"),
    ("Runtime exception: ValueError: toString() of a float sum of 0 (Neo4j's sum of no values is "
     "the integer 0; the engine holds it as 0.0, the same as values that cancel) At: ...",
     "dialect"),
    # What the model wrote.
    ("Binder exception: Table Robot does not exist.", "schema"),
    ("Binder exception: Cannot find property colour for r.", "schema"),
    ("query timed out after 10 s", "timeout"),
])
def test_embedded_engine_errors(error: str, kind: str) -> None:
    assert engine_error_kind(error, "ladybug", "MATCH (r:Room) RETURN r") == kind


def test_an_unknown_variable_is_the_models_only_if_the_model_wrote_it() -> None:
    query = "MATCH (r:Room)-[:CONTAINS]->(o) RETURN m"
    assert engine_error_kind("Binder exception: Variable m is not in scope.", "kuzu",
                             query) == "syntax"
    # A name the translator made (relationship uniqueness, outer values) is its own failure.
    assert engine_error_kind("Binder exception: Variable _rel1 is not in scope.", "kuzu",
                             query) == "dialect"
    assert engine_error_kind("Binder exception: Variable mm is not in scope.", "kuzu",
                             query) == "dialect"


def test_neo4j_errors_keep_their_own_kinds() -> None:
    assert engine_error_kind("Neo.ClientError.Statement.SyntaxError: bad", "neo4j") == "syntax"
    assert engine_error_kind("Neo.ClientError.Statement.ArithmeticError: / by zero",
                             "neo4j") == "runtime"
    assert engine_error_kind("Neo.TransientError.General.MemoryPoolOutOfMemoryError: The "
                             "allocation of an extra 2.0 MiB would use more than the limit",
                             "neo4j") == "memory"


@pytest.mark.parametrize(("code", "kind"), [(-11, "dialect"), (-6, "dialect"),
                                            (-9, "memory"), (1, "memory")])
def test_a_dead_worker(code: int, kind: str) -> None:
    """A crash (a signal other than SIGKILL) is the engine's; SIGKILL or an exit is most likely
    the memory cap, a resource limit."""
    message = _death(WorkerDied(f"worker exited with code {code}", code), 512)
    assert message.startswith("query worker died")  # transient: never cached, asked again
    assert engine_error_kind(message, "kuzu") == kind
