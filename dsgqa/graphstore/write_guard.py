"""Refuse model-written Cypher that could change anything, before it reaches the database.

The databases are opened read-only too (Kuzu `read_only=True`, Neo4j READ transactions); this
guard is the second wall, and the only one for what read-only mode still allows: Kuzu runs
`COPY (...) TO 'file'` (writes a file), `CALL timeout=0` (lifts the time limit) and `ATTACH` on a
read-only database, and a procedure can write through either engine's read mode in some versions.

The scan is lexical: strings, backquoted names and comments are skipped, and a keyword only
counts as a clause when it is not a property (`n.set`), a label (`:Load`), a map key / variable
followed by `:`, or a name given with AS (`AS comment`), wherever it is read (COPY, EXPORT,
ATTACH and INSTALL are whole statements, which must start with a read keyword; SET, DELETE and
the like after reading clauses meet the read-only database). False alarms cost one invalid
query; a missed write would corrupt the benchmark.
"""

from __future__ import annotations

import re

WRITE_KEYWORDS = frozenset({
    "CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "COPY", "LOAD", "ALTER",
    "INSTALL", "UNINSTALL", "ATTACH", "USE", "EXPORT", "IMPORT", "CHECKPOINT", "BEGIN", "COMMIT",
    "ROLLBACK", "FOREACH", "GRANT", "DENY", "REVOKE", "UPDATE", "COMMENT",
})

# A statement must begin with one of these (an allowlist: engines add statements over time, as
# Kuzu's `UPDATE <extension>`, which downloads code even on a read-only database).
# Neo4j 5's read clauses may open a query too: a standalone ORDER BY, SKIP, OFFSET or LIMIT
# (5.24, `WITH * ORDER BY ..`) and FINISH (5.19).
READ_STATEMENT_STARTS = frozenset({
    "MATCH", "OPTIONAL", "UNWIND", "WITH", "RETURN", "CALL", "EXPLAIN", "PROFILE",
    "ORDER", "SKIP", "OFFSET", "LIMIT", "FINISH",
})

# Procedures that only read the catalog; anything else after CALL is refused.
READ_PROCEDURES = frozenset({
    # Kuzu / Ladybug
    "show_tables", "table_info", "show_connection", "show_functions", "show_indexes",
    "show_warnings", "show_attached_databases", "show_sequences", "show_macros", "db_version",
    "current_setting", "show_official_extensions", "show_loaded_extensions",
    # Neo4j
    "db.labels", "db.relationshiptypes", "db.propertykeys", "db.schema.visualization",
    "db.schema.nodetypeproperties", "db.schema.reltypeproperties", "db.indexes",
    "db.constraints", "db.info", "dbms.components",
})
READ_PROCEDURE_PREFIXES = ("apoc.meta.",)

_TOKEN = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
    | (?P<string>'(?:[^'\\]|\\.)*(?:'|\Z)|"(?:[^"\\]|\\.)*(?:"|\Z))
    | (?P<quoted>`(?:[^`]|``)*(?:`|\Z))
    | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def _tokens(cypher: str) -> list[tuple[str, str]]:
    """(kind, text) for everything but whitespace and comments."""
    out = []
    for match in _TOKEN.finditer(cypher):
        kind = match.lastgroup or "other"
        if kind not in ("space", "comment"):
            out.append((kind, match.group()))
    return out


def write_violation(cypher: str) -> str | None:
    """Why `cypher` must not run (one line), or None when it only reads."""
    tokens = _tokens(cypher)
    first = next((text.upper() for kind, text in tokens if kind == "word"), "")
    if first not in READ_STATEMENT_STARTS:
        return f"{first or 'this statement'} is not allowed: only read queries may run (they " \
            "start with a read clause: MATCH, OPTIONAL MATCH, UNWIND, WITH, RETURN, CALL, ...)"
    # Names given with AS (never CALL): AS never precedes a clause, and a translated query,
    # guarded again, prints such names backquoted, so a clause of the same word cannot hide.
    aliases = {text.upper() for i, (kind, text) in enumerate(tokens)
               if kind == "word" and i > 0 and tokens[i - 1][1].upper() == "AS"
               and text.upper() != "CALL"}
    for i, (kind, text) in enumerate(tokens):
        if kind == "other" and text == ";" and any(k != "other" or t != ";"
                                                   for k, t in tokens[i + 1:]):
            return "only one statement per query is allowed"
        if kind != "word":
            continue
        before = tokens[i - 1][1] if i > 0 else ""
        after = tokens[i + 1][1] if i + 1 < len(tokens) else ""
        if before in (".", ":", "$") or after == ":":
            continue  # property, label, parameter, map key or variable
        word = text.upper()
        if word in aliases:
            continue  # an alias (`RETURN o.text AS comment ORDER BY comment`), read as a name
        if word in WRITE_KEYWORDS:
            return f"write operations are not allowed: {word} (the graph is read-only)"
        if word == "CALL":
            problem = _call_violation(tokens, i + 1)
            if problem:
                return problem
    return None


def _call_violation(tokens: list[tuple[str, str]], start: int) -> str | None:
    """CALL { ... } subqueries are scanned like any text; procedures must be known readers."""
    if start >= len(tokens) or tokens[start][1] in ("{", "("):
        return None
    name_parts = []
    i = start
    while i < len(tokens) and tokens[i][0] in ("word", "quoted"):
        name_parts.append(tokens[i][1].strip("`"))
        if i + 1 < len(tokens) and tokens[i + 1][1] == ".":
            i += 2
            continue
        i += 1
        break
    name = ".".join(name_parts).lower()
    following = tokens[i][1] if i < len(tokens) else ""
    if following == "=":
        return f"changing settings is not allowed: CALL {name}=..."
    if name in READ_PROCEDURES or name.startswith(READ_PROCEDURE_PREFIXES):
        return None
    return f"procedure not allowed (may write or change settings): CALL {name or '?'}"
