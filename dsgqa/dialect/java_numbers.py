"""Java's arithmetic where Neo4j's answer depends on it: a float as Java prints it (Neo4j's
`toString()` of a FLOAT; the engines' CAST prints '2.500000' for 2.5), and `Math.round`."""

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


_LONG_MIN, _LONG_MAX = -(2 ** 63), 2 ** 63 - 1


def java_math_round(value: float) -> float:
    """Neo4j's `round(x)`: Java's `Math.round` (the exact value plus one half, floored, held to
    a long), made a float again; NaN and the infinities come back as they are. The engines'
    `floor(x + 0.5)` rounds the sum first: 0.49999999999999994 gave 1.0, an odd integer from
    2^52 to 2^53 the next even one, and 1e20 stayed 1e20 where the long saturates at
    9.223372036854776E18."""
    if not math.isfinite(value):
        return value
    whole = math.floor(value)
    if value - whole >= 0.5:   # exact: the fraction of a double is a double
        whole += 1
    return float(min(max(whole, _LONG_MIN), _LONG_MAX))
