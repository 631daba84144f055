"""Question sets: the QA track's dataset, in the reference harness's YAML format.

    questions:
      - uid: q01
        name: count_chairs
        question: How many chairs are there?
        solution: "4"
        correctness_comparator: {comparison_type: SLDP, relation: equal}
        tags: [counting]
        cypher: MATCH (o:Object {class: 'chair'}) RETURN count(o)   # optional reference

Every problem is reported as one line naming the file, the line, the question uid and the field,
because a nightly run that dies on question 37 with a traceback wastes a night.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from pathlib import Path
from typing import Literal, get_args

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from benchcore.excerpt import excerpt
from benchcore.yaml_load import LOADER as _LOADER
from benchcore.yaml_load import AliasBombError, load_yaml


class QuestionFileError(ValueError):
    """A question file that cannot be used; the message is one line with file:line."""


class Comparator(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    comparison_type: Literal["SLDP", "PDDL"]
    relation: Literal["equal"] = "equal"

    @field_validator("comparison_type", "relation", mode="before")
    @classmethod
    def _any_case(cls, value: object, info: ValidationInfo) -> object:
        """`sldp`, `Pddl` and `EQUAL` mean what they say; an unknown value stays as written,
        so the error shows it."""
        if not isinstance(value, str):
            return value
        accepted = get_args(cls.model_fields[info.field_name].annotation)
        return next((a for a in accepted if a.lower() == value.strip().lower()), value)


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    uid: str = Field(min_length=1)
    name: str = ""
    question: str = Field(min_length=1)
    solution: str
    correctness_comparator: Comparator
    tags: tuple[str, ...] = ()
    cypher: str | None = None

    @field_validator("uid", "solution", mode="before")
    @classmethod
    def _scalars_as_text(cls, value: object) -> object:
        """YAML turns `uid: 7` or `solution: 3` into numbers; both are text here."""
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        return str(value) if is_number else value

    def fingerprint(self) -> str:
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:16]


class QuestionSet(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    questions: tuple[Question, ...]

    def by_uid(self) -> dict[str, Question]:
        return {q.uid: q for q in self.questions}

    def fingerprint(self) -> str:
        """Hash of every question; remembered per set object (frozen), since each stage task
        asks for it and 5,000 questions take a tenth of a second to dump."""
        known = _SET_FINGERPRINTS.get(id(self))
        if known is not None and known[0]() is self:
            return known[1]
        blob = json.dumps([q.model_dump() for q in self.questions], sort_keys=True)
        digest = hashlib.sha256(blob.encode()).hexdigest()[:16]
        _SET_FINGERPRINTS[id(self)] = (weakref.ref(self), digest)
        weakref.finalize(self, _SET_FINGERPRINTS.pop, id(self), None)
        return digest


# id of a question set -> (weak reference to it, its fingerprint)
_SET_FINGERPRINTS: dict[int, tuple[weakref.ref, str]] = {}


def load_question_set(path: str | Path) -> QuestionSet:
    """Read and validate a question file, or raise `QuestionFileError` with one line."""
    path = Path(path)
    return _parse_question_set(path, _read_text(path))


def _read_text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError as error:
        raise QuestionFileError(f"{path}: cannot read: {error.strerror}") from None


def _parse_question_set(path: Path, text: str) -> QuestionSet:
    try:
        data = load_yaml(text)
    except AliasBombError as error:
        raise QuestionFileError(f"{path}:{error.line}: {error.problem}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        problem = getattr(error, "problem", None) or "malformed YAML"
        raise QuestionFileError(f"{path}{line}: malformed YAML: {problem}") from None
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise QuestionFileError(f"{path}:1: expected a top-level `questions:` list")
    try:
        questions = [_validate_question(path, i, raw) for i, raw in enumerate(data["questions"])]
        _reject_duplicates(questions)
    except _Invalid as problem:
        lines = _question_lines(yaml.compose(text, Loader=_LOADER))
        raise problem.error(path, lines) from None
    return QuestionSet(source=str(path), questions=tuple(questions))


def _question_lines(root: yaml.Node | None) -> dict[int, int]:
    """1-based line of each entry of the `questions` list, for error messages."""
    if not isinstance(root, yaml.MappingNode):
        return {}
    for key, value in root.value:
        if key.value == "questions" and isinstance(value, yaml.SequenceNode):
            return {i: item.start_mark.line + 1 for i, item in enumerate(value.value)}
    return {}


class _Invalid(Exception):
    """A problem found before line numbers are known (they cost a second, slower YAML pass,
    so they are computed only when there is something to report)."""

    def __init__(self, index: int, uid: str, message: str, first_index: int | None = None):
        super().__init__(message)
        self.index, self.uid, self.message, self.first_index = index, uid, message, first_index

    def error(self, path: Path, lines: dict[int, int]) -> QuestionFileError:
        message = self.message
        if self.first_index is not None:
            message += f" (first used at line {lines.get(self.first_index, 1)})"
        where = f"{path}:{lines.get(self.index, 1)}: question {self.uid}"
        return QuestionFileError(f"{where}: {message}")


def _validate_question(path: Path, index: int, raw: object) -> Question:
    uid = raw.get("uid", f"#{index + 1}") if isinstance(raw, dict) else f"#{index + 1}"
    uid = uid if isinstance(uid, str) and len(uid) <= 80 else excerpt(uid)
    if not isinstance(raw, dict):
        raise _Invalid(index, uid, "expected a mapping")
    try:
        question = Question.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "question"
        message = first["msg"].lower()
        if first["type"] == "extra_forbidden":
            message = "unknown field"
        elif first["type"] == "literal_error":
            accepted = first.get("ctx", {}).get("expected", "")
            message = (f"unknown value {excerpt(first.get('input'))} (accepted: {accepted}, "
                       "any case)")
        raise _Invalid(index, uid, f"field {field}: {message}") from None
    problem = solution_problem(question)
    if problem:
        raise _Invalid(index, uid, f"field solution: {problem}")
    return question


def solution_problem(question: Question) -> str | None:
    """Why the solution cannot be parsed as its comparator declares (SLDP or a PDDL goal), or
    None. Checked at load: a bad solution is the question file's bug, found before anything
    runs rather than as a crash in the compare stage."""
    from dsgqa.pddl_goal import PDDLGoalError, parse_goal
    from dsgqa.sldp import SLDPError, parse_sldp

    kind = question.correctness_comparator.comparison_type
    try:
        if kind == "PDDL":
            parse_goal(question.solution)
        else:
            parse_sldp(question.solution)
    except (SLDPError, PDDLGoalError) as error:
        detail = " ".join(str(error).split())[:200]
        return f"not a valid {'PDDL goal' if kind == 'PDDL' else 'SLDP value'}: {detail}"
    return None


def _reject_duplicates(questions: list[Question]) -> None:
    seen: dict[str, int] = {}
    for i, question in enumerate(questions):
        if question.uid in seen:
            raise _Invalid(i, question.uid, "field uid: duplicate uid", seen[question.uid])
        seen[question.uid] = i


_SHARED: dict[tuple[str, str], QuestionSet] = {}
_SHARED_LIMIT = 8


def shared_question_set(path: str | Path) -> QuestionSet:
    """The question set of a file, parsed once per process per file content (YAML and
    validation of 5,000 questions take seconds; the load-questions task and every stage task
    ask for the set). Keyed by the text's hash, so any edit is seen, however quickly it
    follows. Stage tasks take the file name, not the parsed set: a path pickles to a Dask
    worker and hashes in no time, where a few hundred questions would be walked by Prefect on
    every call."""
    path = Path(path)
    text = _read_text(path)
    slot = (str(path.resolve()), hashlib.sha256(text.encode()).hexdigest())
    found = _SHARED.get(slot)
    if found is None:
        found = _parse_question_set(path, text)
        if len(_SHARED) >= _SHARED_LIMIT:
            _SHARED.pop(next(iter(_SHARED)))
        _SHARED[slot] = found
    return found
