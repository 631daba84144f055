"""A float as Java prints it: Neo4j's `toString()` of a FLOAT (the engines' CAST prints
'2.500000' for 2.5)."""

from __future__ import annotations

import math
from decimal import Decimal


def java_double_string(value: float) -> str:
    """A float as Neo4j's `toString()` prints it (Java's `Double.toString`): decimal notation
    with at least one fractional digit for 1e-3 <= |x| < 1e7, else `d.dddE<exp>`; the digits are
    the shortest that read back as the same double."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e7:
        text = repr(magnitude)
        if "e" in text or "E" in text:  # repr never uses an exponent in this range; be safe
            text = format(Decimal(text), "f")
        return sign + (text if "." in text else text + ".0")
    digits_tuple = Decimal(repr(magnitude)).as_tuple()
    digits = "".join(map(str, digits_tuple.digits)).rstrip("0") or "0"
    exponent = digits_tuple.exponent + len(digits_tuple.digits) - 1  # type: ignore[operator]
    mantissa = digits[0] + "." + (digits[1:] or "0")
    return f"{sign}{mantissa}E{exponent}"
