"""Values -> SLDP text that parses back to a structurally identical value."""

from __future__ import annotations

import math

from dsgqa.sldp.parse import scalar_patterns
from dsgqa.sldp.values import Point, SLDPDict, SLDPError, SLDPList, SLDPSet, Value

_INF_TEXT = "1e999"  # parses back to float('inf'); the word "inf" would be a string


def format_sldp(value: Value) -> str:
    """SLDP text for a value; parsing it gives back a structurally identical value."""
    if isinstance(value, str):
        return _format_string(value)
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is float:
        return _format_float(value)
    if kind is Point:
        return "POINT(" + " ".join(format_sldp(c) for c in value.coords) + ")"
    if kind is SLDPList:
        return "[" + ", ".join(format_sldp(v) for v in value.items) + "]"
    if kind is SLDPSet:
        return "<" + ", ".join(format_sldp(v) for v in value.items) + ">"
    if kind is SLDPDict:
        pairs = (f"{format_sldp(k)}: {format_sldp(v)}" for k, v in value.items)
        return "{" + ", ".join(pairs) + "}"
    raise SLDPError(f"not an SLDP value: {type(value).__name__} (use to_sldp for plain data)")


def _format_float(value: float) -> str:
    if math.isnan(value):
        raise SLDPError("NaN has no SLDP form")
    if math.isinf(value):
        return _INF_TEXT if value > 0 else "-" + _INF_TEXT
    return repr(value)


def _format_string(text: str) -> str:
    """Bare when the text is one word the grammar reads back as itself, else quoted."""
    match = scalar_patterns()[1].fullmatch(text)
    if match is not None and match.group(1) == text:
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
