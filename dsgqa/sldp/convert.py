"""Plain Python data (database rows) <-> SLDP values, and what the comparators accept."""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from numbers import Integral, Real
from typing import Any

from dsgqa.sldp.format import format_sldp
from dsgqa.sldp.parse import parse_sldp
from dsgqa.sldp.values import (
    MAX_DEPTH,
    Point,
    SLDPDict,
    SLDPError,
    SLDPList,
    SLDPSet,
    SLDPString,
    Value,
)


def from_python(data: Any, _depth: int = 0) -> Value:
    """Plain Python data as an SLDP value.

    lists/tuples -> lists, sets/frozensets -> sets, mappings -> dicts (so a ``{"x", "y", "z"}``
    row stays a dict), ints/floats (and other real numbers) -> numbers, ``True``/``False``/
    ``None`` -> the words ``true``/``false``/``null``; SLDP values pass through; anything else
    becomes its ``str()`` (dates, ids), because database rows carry such values."""
    if _depth > MAX_DEPTH:
        raise SLDPError(f"value nested deeper than {MAX_DEPTH} levels")
    if isinstance(data, str):
        return str(data)  # a plain str, whatever subclass came in
    if isinstance(data, Point | SLDPList | SLDPSet | SLDPDict):
        return data
    if data is None or isinstance(data, bool):
        return {None: "null", True: "true", False: "false"}[data]
    if isinstance(data, Integral):
        return int(data)
    if isinstance(data, Real | Decimal):
        number = float(data)
        if math.isnan(number):
            raise SLDPError("NaN has no SLDP form")
        return number
    if isinstance(data, Mapping):
        return SLDPDict(
            tuple((from_python(k, _depth + 1), from_python(v, _depth + 1)) for k, v in data.items())
        )
    if isinstance(data, list | tuple):
        return SLDPList(tuple(from_python(v, _depth + 1) for v in data))
    if isinstance(data, set | frozenset):
        return SLDPSet(tuple(from_python(v, _depth + 1) for v in data))
    return str(data)


def to_sldp(data: Any) -> str:
    """SLDP text for plain Python data (see :func:`from_python` for the mapping)."""
    return format_sldp(from_python(data))


def as_value(data: Any) -> Value:
    """Text is parsed; parsed values pass; other plain data is converted.

    A plain ``str`` is SLDP text; a :class:`SLDPString` (what :func:`parse_sldp` returns for a
    lone string) is already a value."""
    if isinstance(data, str) and not isinstance(data, SLDPString):
        data = parse_sldp(data)
    return from_python(data)  # also turns an SLDPString into the plain str the comparison uses
