"""`$VAR` and `${VAR}` in a config file's values, as a shell (and heracles_agents' configs,
`$HERACLES_AGENTS_PATH/...`) would expand them.

Why not `os.path.expandvars`: it leaves an unset variable as it is, and a path like
`$DATA/questions.yaml` then fails later as a missing file far from its cause. Here an unset
variable is a problem of the file, at its key. `$$` stands for a literal `$`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from benchcore.yaml_problems import Loc, Problem

_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*)|(\$))")


def expand_text(text: str, environ: Mapping[str, str] | None = None) -> tuple[str, list[str]]:
    """The text with its variables replaced, and the names of those that are not set."""
    environ = os.environ if environ is None else environ
    unset: list[str] = []

    def replace(match: re.Match[str]) -> str:
        if match.group(3):
            return "$"
        name = match.group(1) or match.group(2)
        if name not in environ:
            unset.append(name)
            return match.group(0)
        return environ[name]

    return _VARIABLE.sub(replace, text), unset


def expand_variables(data: object, environ: Mapping[str, str] | None = None,
                     loc: Loc = ()) -> tuple[object, list[Problem]]:
    """A copy of parsed YAML with every string value expanded, and a problem for each unset
    variable at its key (keys themselves are never expanded)."""
    if isinstance(data, str):
        if "$" not in data:
            return data, []
        text, unset = expand_text(data, environ)
        return text, [Problem(loc, f"environment variable ${name} is not set") for name in unset]
    if isinstance(data, dict):
        out: dict[object, object] = {}
        problems: list[Problem] = []
        for key, value in data.items():
            out[key], found = expand_variables(value, environ, (*loc, str(key)))
            problems += found
        return out, problems
    if isinstance(data, list):
        items: list[object] = []
        problems = []
        for i, value in enumerate(data):
            item, found = expand_variables(value, environ, (*loc, i))
            items.append(item)
            problems += found
        return items, problems
    return data, []
