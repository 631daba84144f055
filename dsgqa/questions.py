"""Question sets: the QA track's dataset, in the reference harness's YAML format.

    questions:
      - uid: q01
        name: count_chairs
        question: How many chairs are there?
        solution: "4"
        correctness_comparator: {comparison_type: SLDP, relation: equal}
        tags: [counting]
        cypher: MATCH (o:Object {class: 'chair'}) RETURN count(o)   # optional reference
        code: |                          # optional: a reference solution for the codegen
          def solve_task(scene_graph):  # pipeline's oracle (`dsgqa.oracle`)
              ...

A set may open with `preamble:`, text stating once the definitions its questions use ("an
object is in a room when ...", "'the C' is the only room whose class is C"); every prompt
shows it before the question (`Question.prompt_text`). It is a set-level key only: each
question carries a copy, and a question that writes `preamble:` itself is refused.

Every problem is reported as one line naming the file, the line, the question uid and the field,
because a nightly run that dies on question 37 with a traceback wastes a night; and every
problem of the file at once (`QuestionFileError.problems`), an unknown key on its own line with
its near miss (`soluton` -> `solution`), because a hand-written set otherwise takes one run
per typo. `nlp-dsg-benchmark questions check` adds running each reference query
(`dsgqa/question_check.py`).
"""

from __future__ import annotations

import hashlib
import json
import weakref
from pathlib import Path
from typing import Any, Literal, get_args

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
from benchcore.yaml_load import AliasBombError, load_yaml
from benchcore.yaml_problems import compose, line_of, unknown_key


class QuestionFileError(ValueError):
    """A question file that cannot be used: `problems` holds every problem, one line each with
    file:line; the message is the first, saying how many more there are."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        self.problems = problems or [message]
        more = len(self.problems) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        super().__init__(self.problems[0] + suffix)


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
    code: str | None = None
    #: The set's preamble, copied into each question at load (never written per question).
    preamble: str | None = None

    @field_validator("uid", "solution", mode="before")
    @classmethod
    def _scalars_as_text(cls, value: object) -> object:
        """YAML turns `uid: 7` or `solution: 3` into numbers; both are text here."""
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        return str(value) if is_number else value

    def prompt_text(self) -> str:
        """The question as a model sees it: the set's preamble, then the question."""
        return f"{self.preamble}\n\n{self.question}" if self.preamble else self.question

    def fingerprint(self) -> str:
        """Without `code`: only the codegen oracle reads it (its stage keys on it), and the
        other stages' cached items must not change when a reference solution is added. With
        the preamble when there is one (the prompts show it), and otherwise as before it
        existed, so a set without one keeps its cached items."""
        return hashlib.sha256(self.model_dump_json(exclude=_unset(self, {"code"}))
                              .encode()).hexdigest()[:16]


def _unset(question: Question, always: set[str]) -> set[str]:
    """Fields left out of a question's fingerprints: `always`, and the preamble when none."""
    return always | ({"preamble"} if question.preamble is None else set())


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
        blob = json.dumps([q.model_dump(exclude=_unset(q, {"code"} if q.code is None else set())
                                        or None)
                           for q in self.questions], sort_keys=True)
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
    questions, problems = parse_questions(path, text)
    if problems:
        raise QuestionFileError(problems[0], problems)
    return QuestionSet(source=str(path), questions=tuple(questions))


def parse_questions(path: Path, text: str) -> tuple[list[Question], list[str]]:
    """The valid questions of a file and every problem found, one line each in file order
    (no questions when the file as a whole is unusable)."""
    try:
        data = load_yaml(text)
    except AliasBombError as error:
        return [], [f"{path}:{error.line}: {error.problem}"]
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        problem = getattr(error, "problem", None) or "malformed YAML"
        return [], [f"{path}{line}: malformed YAML: {problem}"]
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        return [], [f"{path}:1: expected a top-level `questions:` list"]
    preamble = data.get("preamble")
    if preamble is not None and (not isinstance(preamble, str) or not preamble.strip()):
        line = line_of(compose(text), ("preamble",))
        return [], [f"{path}:{line}: field preamble: expected text stating the set's "
                    "definitions"]
    placed: list[tuple[int, Question]] = []   # (position in the file, question)
    invalid: list[_Invalid] = []
    for i, raw in enumerate(data["questions"]):
        question, found = _validate_question(i, raw, preamble.strip() if preamble else None)
        invalid += found
        if question is not None:
            placed.append((i, question))
    invalid += _duplicates(placed)
    questions = [question for _, question in placed]
    if not invalid:   # other top-level keys are the set's metadata (a generated set's graph)
        return questions, []
    root = compose(text)   # a second, slower pass: only when there is something to report
    located = [(line_of(root, ("questions", p.index, *p.loc)), p.error(path, root))
               for p in invalid]
    return questions, [message for _, message in sorted(located, key=lambda t: t[0])]


class _Invalid(Exception):
    """A problem of question `index`, at key path `loc` inside it (its line comes from the
    YAML nodes, composed only when there is something to report)."""

    def __init__(self, index: int, uid: str, message: str, loc: tuple[int | str, ...] = (),
                 first_index: int | None = None):
        super().__init__(message)
        self.index, self.uid, self.message, self.loc = index, uid, message, loc
        self.first_index = first_index

    def error(self, path: Path, root: yaml.Node | None) -> str:
        message = self.message
        if self.first_index is not None:
            first = line_of(root, ("questions", self.first_index))
            message += f" (first used at line {first})"
        where = f"{path}:{line_of(root, ('questions', self.index, *self.loc))}: question {self.uid}"
        return f"{where}: {message}"


def _validate_question(index: int, raw: object,
                       preamble: str | None) -> tuple[Question | None, list[_Invalid]]:
    uid = raw.get("uid", f"#{index + 1}") if isinstance(raw, dict) else f"#{index + 1}"
    uid = uid if isinstance(uid, str) and len(uid) <= 80 else excerpt(uid)
    if not isinstance(raw, dict):
        return None, [_Invalid(index, uid, "expected a mapping")]
    if "preamble" in raw:
        return None, [_Invalid(index, uid, "field preamble: a set-level key; write it once, "
                               "at the top of the file", ("preamble",))]
    try:
        question = Question.model_validate({**raw, "preamble": preamble} if preamble else raw)
    except ValidationError as error:
        return None, [_Invalid(index, uid, _message(entry), _key_loc(entry))
                      for entry in error.errors()]
    problem = solution_problem(question)
    if problem:
        return None, [_Invalid(index, uid, f"field solution: {problem}", ("solution",))]
    return question, []


def _message(entry: Any) -> str:
    field = ".".join(str(p) for p in entry["loc"]) or "question"
    message = entry["msg"].lower()
    if entry["type"] == "extra_forbidden":
        known = Comparator.model_fields if len(entry["loc"]) > 1 else Question.model_fields
        message = unknown_key(str(entry["loc"][-1]), known)
    elif entry["type"] == "literal_error":
        accepted = entry.get("ctx", {}).get("expected", "")
        message = f"unknown value {excerpt(entry.get('input'))} (accepted: {accepted}, any case)"
    return f"field {field}: {message}"


def _key_loc(entry: Any) -> tuple[int | str, ...]:
    """Where to point: the key itself when it is written (an unknown key, a bad value), the
    question's first line when it is missing."""
    return () if entry["type"] == "missing" else tuple(entry["loc"])


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


def _duplicates(placed: list[tuple[int, Question]]) -> list[_Invalid]:
    """Every repeated uid, pointing at the repeat and naming the first use's line."""
    seen: dict[str, int] = {}
    found: list[_Invalid] = []
    for i, question in placed:
        if question.uid in seen:
            found.append(_Invalid(i, question.uid, "field uid: duplicate uid", ("uid",),
                                  seen[question.uid]))
        else:
            seen[question.uid] = i
    return found


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
