"""Text that is safe to print on a terminal.

Replies, question texts, tags, model names and server errors are printed in tables and status
lines. A terminal obeys control characters in them: an ESC sequence may clear the screen, set
the window title, colour everything after it or plant a hyperlink (OSC 8) that shows one
address and opens another; a carriage return overwrites what was printed before it, and
bidirectional overrides reorder what is shown. `printable` removes whole escape sequences and
turns every other control character into a space, so what is printed is what the text says.
"""

from __future__ import annotations

import re

# CSI (`ESC [` or U+009B ... final byte), OSC (`ESC ]` or U+009D ... BEL or ST), DCS/SOS/PM/APC
# strings (`ESC P`, `ESC X`, `ESC ^`, `ESC _` ... ST), and two-character escapes.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -~]?"
)
# C0 and C1 controls, DEL, and the bidirectional embedding, override and isolate marks.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str, keep_newlines: bool = False) -> str:
    """`text` without escape sequences and with every other control character as a space
    (`keep_newlines`: a `\\n` stays, for text printed as several lines)."""
    if not _CONTROL.search(text):
        return text
    text = _SEQUENCE.sub("", text)
    if keep_newlines:
        return "\n".join(_CONTROL.sub(" ", line) for line in text.split("\n"))
    return _CONTROL.sub(" ", text)
