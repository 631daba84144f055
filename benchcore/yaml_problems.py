"""Every problem of a hand-written YAML file at once, each as one line with its file:line.

Why one module for run configs and question sets: both are written by hand by people who
know another tool's format (heracles_agents), and both used to stop at the first problem and
name it without a line. Validation collects every problem; the YAML node tree (composed once,
only when there is something to report) gives each its line; an unknown key is named with its
nearest known key (`timeout` -> `timeout_s`).
"""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ValidationError

Loc = tuple[int | str, ...]


@dataclass(frozen=True)
class Problem:
    """One problem: where (a path of keys and list indexes) and what, without file or line."""

    loc: Loc
    message: str

    def line(self, path: Path | str, root: yaml.Node | None) -> str:
        """`file:line: field a.b: message`."""
        where = ".".join(str(p) for p in self.loc)
        field = f"field {where}: " if where else ""
        return f"{path}:{line_of(root, self.loc)}: {field}{self.message}"


def compose(text: str) -> yaml.Node | None:
    """The YAML node tree (lines and columns), or None when the text is not YAML."""
    try:
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return None


def line_of(root: yaml.Node | None, loc: Sequence[int | str]) -> int:
    """1-based line of the deepest node along `loc` (a key's own line for a mapping key, so an
    unknown key is reported where it is written)."""
    node, line = root, (root.start_mark.line + 1) if root is not None else 1
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) \
                and 0 <= part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def suggestion(word: str, known: Iterable[str], hints: Mapping[str, str] | None = None) -> str:
    """` (did you mean 'timeout_s'?)`, or nothing when no known key is close. `hints` maps
    another tool's key names to ours (`model` -> `name`) or to a sentence about them."""
    known = list(known)
    hint = (hints or {}).get(word)
    if hint is not None:
        return f" (did you mean {hint!r}?)" if hint in known else f" ({hint})"
    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    if not close:
        prefixed = sorted(k for k in known if k.startswith(word) or word.startswith(k))
        close = prefixed[:1]
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown_key(word: str, known: Iterable[str], hints: Mapping[str, str] | None = None) -> str:
    return f"unknown key {word!r}{suggestion(word, known, hints)}"


def validation_problems(error: ValidationError, model: type[BaseModel], prefix: Loc = (),
                        hints: Mapping[str, str] | None = None) -> list[Problem]:
    """Every error of a pydantic validation, located as written in the file (without the
    member names pydantic adds for a union) and worded for a person: an unknown key with its
    near miss, a wrong value with the accepted ones."""
    seen: set[tuple[Loc, str]] = set()
    problems: list[Problem] = []
    errors = error.errors()
    for entry in errors:
        raw = tuple(entry["loc"])
        if _from_literal_branch(raw, errors):
            continue
        loc = prefix + clean_loc(raw)
        kind = entry["type"]
        if kind == "extra_forbidden":
            message = unknown_key(str(raw[-1]), _fields_at(model, raw[:-1]), hints)
        elif kind == "missing":
            message = "required key missing"
        elif kind == "literal_error":
            accepted = entry.get("ctx", {}).get("expected", "")
            message = f"unknown value {entry.get('input')!r} (accepted: {accepted})"
        else:
            message = entry["msg"].removeprefix("Value error, ")
            message = message[:1].lower() + message[1:]
        if (loc, message) not in seen:
            seen.add((loc, message))
            problems.append(Problem(loc, message))
    return problems


def clean_loc(loc: Sequence[int | str]) -> Loc:
    """`qa.pipelines.0.kind`, without `PipelineConfig` or `literal[...]` (union members)."""
    return tuple(p for p in loc if not (isinstance(p, str) and (p[:1].isupper() or "[" in p)))


def _from_literal_branch(loc: Loc, errors: list) -> bool:
    """A union of a model and a short form (`pipelines: [feedforward]`): a mapping that fails
    the model also fails the short form; only the model's errors say why."""
    branch = next((i for i, p in enumerate(loc) if isinstance(p, str) and "[" in p), None)
    if branch is None:
        return False
    parent = loc[:branch]
    return any(tuple(e["loc"])[:branch] == parent and tuple(e["loc"]) != loc
               and not any(isinstance(p, str) and "[" in p for p in tuple(e["loc"])[branch:])
               for e in errors)


def _fields_at(model: type[BaseModel], loc: Sequence[int | str]) -> list[str]:
    """The field names of the model found at `loc` under `model` (through optional values,
    lists and unions), for suggesting a near miss."""
    current: object = model
    for part in loc:
        if isinstance(part, int):
            continue
        found = _model_in(current)
        if found is None:
            return []
        if isinstance(part, str) and part[:1].isupper():
            current = next((m for m in _models_in(current) if m.__name__ == part), found)
            continue
        field = found.model_fields.get(str(part))
        if field is None:
            return []
        current = field.annotation
    found = _model_in(current)
    return list(found.model_fields) if found is not None else []


def _models_in(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    origin = typing.get_origin(annotation)
    if origin is None and not isinstance(annotation, types.UnionType):
        return []
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def _model_in(annotation: object) -> type[BaseModel] | None:
    models = _models_in(annotation)
    return models[0] if models else None
