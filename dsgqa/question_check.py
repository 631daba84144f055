"""`nlp-dsg-benchmark questions check SET --scene-graph G`: everything wrong with a hand-written
question set, before a run spends model calls on it.

Two passes. The file itself: every problem at once, each with its file:line (the same
validation a run does, `dsgqa.questions.parse_questions`, so the check never disagrees with the
loader). Then every reference `cypher`: run the way a benchmark run takes it (the oracle writes
the reference query, `run_query` translates and runs it read-only, the oracle turns the rows
into an answer shaped like the solution, and `compare` scores it), so a solution that does not
follow from its own query is found here, not as a mysteriously wrong model.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from benchcore.llm.base import ModelConfig
from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from benchcore.terminal_text import printable
from benchcore.text_safety import safe_text
from benchcore.yaml_problems import compose, line_of
from dsgqa.graphstore import GraphStore, open_graph_store
from dsgqa.oracle import OracleClient
from dsgqa.questions import Question, QuestionFileError, parse_questions
from dsgqa.scene_graph import load_scene_graph
from dsgqa.stages.compare import compare
from dsgqa.stages.generate_cypher import generate_cypher
from dsgqa.stages.refine import refine
from dsgqa.stages.run_query import run_query

_CUT = 160   # characters of an answer or solution quoted in a problem line


@dataclass
class CheckReport:
    """What the check found: problem lines in file order, and the counts for the summary."""

    questions: int = 0
    with_reference: int = 0
    matching: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self, path: Path) -> str:
        verdict = "ok" if not self.problems else f"{len(self.problems)} problem(s)"
        return (f"{path}: {verdict}; {self.questions} valid question(s), {self.with_reference} "
                f"reference quer{'y' if self.with_reference == 1 else 'ies'} run, "
                f"{self.matching} match their solution")


def check_question_set(path: Path, scene_graph: Path, backend: str = DEFAULT_EMBEDDED_BACKEND,
                       db_root: Path | None = None) -> CheckReport:
    """Every problem of the file, then every reference query's rows against its solution."""
    try:
        text = path.read_text()
    except OSError as error:
        raise QuestionFileError(f"{path}: cannot read: {error.strerror}") from None
    questions, problems = parse_questions(path, text)
    report = CheckReport(questions=len(questions), problems=list(problems))
    referenced = [q for q in questions if q.cypher]
    if not referenced:
        return report
    graph = load_scene_graph(scene_graph)
    lines = _cypher_lines(compose(text))
    with _store(backend, graph, db_root) as store:
        for question, problem in _reference_problems(store, referenced):
            report.with_reference += 1
            if problem is None:
                report.matching += 1
            else:
                report.problems.append(f"{path}:{lines.get(question.uid, 1)}: question "
                                       f"{question.uid}: field cypher: {problem}")
    report.problems = _in_file_order(path, report.problems)
    return report


def _reference_problems(store: GraphStore, questions: list[Question]
                        ) -> Iterator[tuple[Question, str | None]]:
    """(question, why its reference query does not give its solution, or None)."""
    oracle = OracleClient(ModelConfig(name="oracle", provider="oracle"),
                          {q.uid: q for q in questions})
    for question in questions:
        outcome = run_query(store, generate_cypher(question, oracle, schema=""))
        if not outcome.valid:
            error = " ".join((outcome.error or "").split())[:_CUT]
            yield question, f"the reference query fails ({outcome.query_error_kind}): {error}"
            continue
        if outcome.truncated:
            yield question, f"the reference query returns more than {len(outcome.rows)} rows"
            continue
        refined = refine(question, outcome, oracle)
        verdict = compare(question, refined)
        if verdict.correct:
            yield question, None
        else:
            yield question, (f"its {len(outcome.rows)} row(s) give {_quoted(refined.answer)}, "
                             f"the solution is {_quoted(question.solution)}"
                             + (f" ({verdict.mismatch})" if verdict.mismatch else ""))


def _quoted(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= _CUT else text[:_CUT] + "…")


def _cypher_lines(root: yaml.Node | None) -> dict[str, int]:
    """uid -> line of its `cypher:` key (the first question with a uid wins)."""
    lines: dict[str, int] = {}
    if not isinstance(root, yaml.MappingNode):
        return lines
    for key, value in root.value:
        if key.value != "questions" or not isinstance(value, yaml.SequenceNode):
            continue
        for i, item in enumerate(value.value):
            if not isinstance(item, yaml.MappingNode):
                continue
            uid = next((v.value for k, v in item.value if k.value == "uid"), None)
            if uid is not None and uid not in lines:
                lines[str(uid)] = line_of(root, ("questions", i, "cypher"))
    return lines


def _in_file_order(path: Path, problems: list[str]) -> list[str]:
    """Problems sorted by their line (each starts `path:line:`), stable within a line."""
    prefix = len(str(path)) + 1

    def line(problem: str) -> int:
        number = problem[prefix:].split(":", 1)[0]
        return int(number) if number.isdigit() else 0

    return sorted(problems, key=line)


class _store:
    """The graph store in a temporary folder unless one is named (a check leaves nothing)."""

    def __init__(self, backend: str, graph: object, db_root: Path | None) -> None:
        self.backend, self.graph, self.db_root = backend, graph, db_root
        self._scratch: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> GraphStore:
        root = self.db_root
        if root is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="questions-check-")
            root = Path(self._scratch.name)
        self._store = open_graph_store(self.backend, self.graph, db_root=root)
        return self._store.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._store.__exit__(*exc)
        if self._scratch is not None:
            self._scratch.cleanup()


def check_command(questions: str, scene_graph: str, backend: str = DEFAULT_EMBEDDED_BACKEND,
                  db_root: str | None = None) -> int:
    """Print every problem (one line each) and a summary; 0 when there is none, 1 otherwise."""
    path = Path(questions)
    report = check_question_set(path, Path(scene_graph), backend,
                                Path(db_root) if db_root else None)
    for problem in report.problems:   # a file's values may hold terminal controls
        print(printable(safe_text(problem)))
    print(printable(safe_text(report.summary(path))))
    return 1 if report.problems else 0
