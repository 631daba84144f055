"""Print a (rewritten) parse tree as Cypher text in Kuzu's dialect.

The emitter only prints: every change of meaning is a named pass in `rewrite.py`. It adds
parentheses where operator precedence needs them, so rewritten sub-expressions never re-associate.
"""

from __future__ import annotations

import re

from lark import Token, Tree

from dsgqa.dialect.errors import DialectError

# Higher binds tighter; a child printed under a parent of higher precedence gets parentheses.
_PRECEDENCE = {
    "or_": 1, "xor_": 2, "and_": 3, "not_": 4, "compare": 5,
    "is_null": 6, "is_not_null": 6, "starts_with": 6, "ends_with": 6, "contains": 6, "in_": 6,
    "regex": 6, "has_label": 11,
}
_ARITH = {"+": 7, "-": 7, "||": 7, "*": 8, "/": 8, "%": 8, "^": 9}
_ATOM = 12


def precedence(node: object) -> int:
    if not isinstance(node, Tree):
        return _ATOM
    if node.data == "arith":
        return _ARITH[str(node.children[1])]
    if node.data == "unary":
        return 10
    return _PRECEDENCE.get(str(node.data), _ATOM)


# Words Kuzu's or Ladybug's parser reserves (or the write guard reads as a clause) that Neo4j
# takes as names (`RETURN r.nodeSymbol AS ends`, `AS all`, `UNWIND range(0, 2) AS index` failed
# to parse; measured as aliases on Kuzu 0.11.3 and Ladybug 0.22.0): backquoted wherever the
# translation prints them as a name. A called function's name is printed as written
# (`_callee`): a backquote would turn `any(..)` or `cast(..)` into a variable.
_ENGINE_RESERVED = frozenset({
    "ACYCLIC", "ALL", "ALTER", "AND", "ANY", "ASC", "ASCENDING", "ATTACH", "BEGIN", "CASE",
    "CAST", "CHECKPOINT", "COLUMN", "COMMENT", "COMMIT", "COPY", "CREATE", "DEFAULT", "DELETE",
    "DESC", "DESCENDING", "DETACH", "DISTINCT", "DROP", "ELSE", "END", "ENDS", "EXISTS",
    "EXPORT", "FALSE", "GLOB", "GROUP", "IMPORT", "IN", "INDEX", "INSTALL", "LOAD", "MACRO",
    "MERGE", "NONE", "NOT", "NULL", "ON", "ONLY", "OPTIONAL", "OR", "ORDER", "PRIMARY",
    "PROFILE", "ROLLBACK", "SET", "SHORTEST", "SINGLE", "STARTS", "TABLE", "THEN", "TRAIL",
    "TRUE", "UNINSTALL", "UNION", "UNWIND", "UPDATE", "USE", "WHEN", "WHERE", "WITH",
    "WSHORTEST", "XOR",
})


def name_text(node: Tree | Token | str) -> str:
    """The identifier of a `name` node as written (backticks kept); a word the engines reserve
    is backquoted."""
    if isinstance(node, Tree):
        node = node.children[0]
    text = str(node)
    return f"`{text}`" if text.upper() in _ENGINE_RESERVED else text


def plain_name(node: Tree | Token | str) -> str:
    """The identifier without backticks, for comparing names."""
    text = name_text(node)
    if text.startswith("`") and text.endswith("`"):
        return text[1:-1].replace("``", "`")
    return text


def range_bounds(node: Tree) -> tuple[int | None, int | None]:
    """(low, high) of a `range_span` (`*1..3`, `*..3`, `*2..`), None where omitted."""
    tokens = [str(c) for c in node.children]
    split = tokens.index("..")
    low = int(tokens[0], 0) if split == 1 else None
    high = int(tokens[split + 1], 0) if split + 1 < len(tokens) else None
    return low, high


def quote_string(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def unquote_string(literal: str) -> str:
    """The value of a Cypher string literal ('...' or "...", backslash escapes). A backslash
    before any other character stays, with it: Neo4j's lexer takes any character after a
    backslash ("In Cypher it is allowed to have any character following a backslash. In the
    cases it is an actual escape code it is handled in the AST builder", Cypher5Lexer.g4), and
    `LiteralBuilder.cypherStringToString` replaces only \\t \\b \\n \\r \\f \\' \\" and
    \\\\ (`\\uXXXX` is read before, `CypherInputStream`), so `'O\\d+'` is the regex O\\d+ and
    `'\\U0001F600'` ten characters."""
    body, out, i = literal[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            digits = i + 1
            while nxt == "u" and digits < len(body) and body[digits] == "u":
                digits += 1   # Java's `\uu0041` (`convertUnicode` skips every u)
            if nxt == "u" and _HEX4.fullmatch(body, digits, digits + 4):
                out.append(chr(int(body[digits:digits + 4], 16)))
                i = digits + 4
                continue
            out.append(_ESCAPES.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "'": "'", '"': '"',
            "\\": "\\"}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")


class Emitter:
    """Tree -> text. One method per tree kind; unknown kinds are a bug, reported as dialect."""

    def emit(self, node: Tree | Token | None) -> str:
        if node is None:
            return ""
        if isinstance(node, Token):
            return str(node)
        method = getattr(self, f"e_{node.data}", None)
        if method is None:
            raise DialectError(f"cannot print {node.data}")
        return method(node)

    def _sub(self, node: object, parent: int, right: bool = False) -> str:
        text = self.emit(node)  # type: ignore[arg-type]
        mine = precedence(node)
        if mine < parent or (right and mine == parent and parent < _ATOM):
            return f"({text})"
        return text

    # ---------------------------------------------------------------- clauses
    def e_start(self, node: Tree) -> str:
        return self.emit(node.children[0])

    def e_query(self, node: Tree) -> str:
        return " ".join(self.emit(c) for c in node.children)

    def e_union(self, node: Tree) -> str:
        return "UNION ALL" if node.children else "UNION"

    def e_single_query(self, node: Tree) -> str:
        return " ".join(self.emit(c) for c in node.children)

    def e_match(self, node: Tree) -> str:
        parts = []
        for child in node.children:
            if isinstance(child, Token) and child.type == "OPTIONAL":
                parts.append("OPTIONAL")
            elif child.data == "pattern_list":
                parts.append("MATCH " + self.emit(child))
            else:
                parts.append(self.emit(child))
        return " ".join(parts)

    def e_where(self, node: Tree) -> str:
        return "WHERE " + self.emit(node.children[0])

    def e_unwind(self, node: Tree) -> str:
        expr, alias = node.children
        return f"UNWIND {self.emit(expr)} AS {name_text(alias)}"

    def e_with_clause(self, node: Tree) -> str:
        return "WITH " + " ".join(self.emit(c) for c in node.children)

    def e_return_clause(self, node: Tree) -> str:
        return "RETURN " + self.emit(node.children[0])

    def e_call_subquery(self, node: Tree) -> str:
        raise DialectError("CALL { ... } subqueries have no Kuzu equivalent")

    def e_call_procedure(self, node: Tree) -> str:
        raise DialectError("procedure calls (CALL db....) have no Kuzu equivalent")

    def e_projection(self, node: Tree) -> str:
        parts = []
        for child in node.children:
            parts.append("DISTINCT" if isinstance(child, Token) else self.emit(child))
        return " ".join(parts)

    def e_proj_items(self, node: Tree) -> str:
        return ", ".join("*" if isinstance(c, Token) else self.emit(c) for c in node.children)

    def e_proj_item(self, node: Tree) -> str:
        text = self.emit(node.children[0])
        if len(node.children) > 1:
            text += f" AS {name_text(node.children[1])}"
        return text

    def e_order(self, node: Tree) -> str:
        return "ORDER BY " + ", ".join(self.emit(c) for c in node.children)

    def e_sort_item(self, node: Tree) -> str:
        text = self.emit(node.children[0])
        if len(node.children) > 1:
            direction = str(node.children[1]).upper()
            text += " DESC" if direction.startswith("DESC") else " ASC"
        return text

    def e_skip(self, node: Tree) -> str:
        return "SKIP " + self.emit(node.children[0])

    def e_limit(self, node: Tree) -> str:
        return "LIMIT " + self.emit(node.children[0])

    # ---------------------------------------------------------------- patterns
    def e_pattern_list(self, node: Tree) -> str:
        return ", ".join(self.emit(c) for c in node.children)

    def e_pattern(self, node: Tree) -> str:
        if len(node.children) == 3:
            return f"{name_text(node.children[0])} = {self.emit(node.children[2])}"
        return self.emit(node.children[-1])

    def e_path_function(self, node: Tree) -> str:
        raise DialectError(f"{plain_name(node.children[0])}() has no Kuzu equivalent here")

    def e_chain(self, node: Tree) -> str:
        return "".join(self.emit(c) for c in node.children)

    def e_node_pattern(self, node: Tree) -> str:
        parts = []
        for child in node.children:
            if child.data == "name":
                parts.append(name_text(child))
            elif child.data == "node_labels":
                parts.append(self.emit(child))
            else:
                parts.append((" " if parts else "") + self.emit(child))
        return "(" + "".join(parts) + ")"

    def e_node_labels(self, node: Tree) -> str:
        # Kuzu writes label alternatives as (n:A:B); `rewrite` refuses Neo4j's :A:B (both labels).
        terms = [c for c in node.children if c.data == "label_term"]
        return ":" + ":".join(name_text(t.children[0]) for t in terms)

    def _rel(self, node: Tree, left: str, right: str) -> str:
        detail = next((c for c in node.children if isinstance(c, Tree)), None)
        return f"{left}[{self.emit(detail)}]{right}"

    def e_rel_left(self, node: Tree) -> str:
        return self._rel(node, "<-", "-")

    def e_rel_right(self, node: Tree) -> str:
        return self._rel(node, "-", "->")

    def e_rel_undirected(self, node: Tree) -> str:
        return self._rel(node, "-", "-")

    def e_rel_both(self, node: Tree) -> str:
        return self._rel(node, "-", "-")  # Neo4j reads <--> as either direction

    def e_rel_detail(self, node: Tree) -> str:
        parts = []
        for child in node.children:
            if child.data == "name":
                parts.append(name_text(child))
            elif child.data == "map_literal":
                parts.append(" " + self.emit(child))
            else:
                parts.append(self.emit(child))
        return "".join(parts)

    def e_rel_types(self, node: Tree) -> str:
        names = [name_text(c) for c in node.children if c.data == "name"]
        return ":" + "|".join(names)

    def e_var_length(self, node: Tree) -> str:
        text = "*"
        for child in node.children:
            if isinstance(child, Token):
                continue
            if child.data == "recursion_mode":
                text += " " + " ".join(str(child.children[0]).upper().split())
            else:
                text += (" " + self.emit(child)) if text != "*" else self.emit(child)
        return text

    def e_recursive_filter(self, node: Tree) -> str:
        rel, node_var, test = node.children
        return f"({name_text(rel)}, {name_text(node_var)} | WHERE {self.emit(test)})"

    def e_range_exact(self, node: Tree) -> str:
        return f"{int(str(node.children[0]), 0)}..{int(str(node.children[0]), 0)}"

    def e_range_span(self, node: Tree) -> str:
        low, high = range_bounds(node)
        return f"{'' if low is None else low}..{'' if high is None else high}"

    # ---------------------------------------------------------------- expressions
    def _binary(self, node: Tree, op: str) -> str:
        """AND, OR, XOR of two operands as parsed, or of any number a rewrite joined (`a < b <
        c < d` as three comparisons): every operand is printed."""
        prec = precedence(node)
        operands = [child for child in node.children if not isinstance(child, Token)]
        return f" {op} ".join([self._sub(operands[0], prec),
                               *[self._sub(child, prec, right=True) for child in operands[1:]]])

    def e_or_(self, node: Tree) -> str:
        return self._binary(node, "OR")

    def e_xor_(self, node: Tree) -> str:
        return self._binary(node, "XOR")

    def e_and_(self, node: Tree) -> str:
        return self._binary(node, "AND")

    def e_not_(self, node: Tree) -> str:
        return "NOT " + self._sub(node.children[0], precedence(node))

    def e_compare(self, node: Tree) -> str:
        op = str(node.children[1])
        return self._binary(node, "<>" if op == "!=" else op)

    def _tested(self, node: object, right: bool = False) -> str:
        text = self._sub(node, 6, right)
        if isinstance(node, Tree) and (node.data in ("index", "kuzu_slice", "arith", "unary")
                                       or precedence(node) == 6):
            # Kuzu's parser refuses `xs[1] IS NULL`, and binds IS NULL, IN, CONTAINS, STARTS
            # WITH and =~ tighter than arithmetic (openCypher's grammar; Neo4j binds them
            # looser): `a + b IS NULL` is `a + (b IS NULL)` there. Nor does it read one of
            # them tested again (`x IS NULL IS NULL`, a NULL test of a test a rewrite made).
            return f"({text})"
        return text

    def _list_op(self, node: Tree, op: str) -> str:
        """IN, CONTAINS, STARTS WITH, ENDS WITH, =~: arithmetic operands in parentheses
        (see `_tested`)."""
        left, right = node.children[0], node.children[-1]
        return f"{self._tested(left)} {op} {self._tested(right, right=True)}"

    def e_is_null(self, node: Tree) -> str:
        return self._tested(node.children[0]) + " IS NULL"

    def e_is_not_null(self, node: Tree) -> str:
        return self._tested(node.children[0]) + " IS NOT NULL"

    def e_starts_with(self, node: Tree) -> str:
        return self._list_op(node, "STARTS WITH")

    def e_ends_with(self, node: Tree) -> str:
        return self._list_op(node, "ENDS WITH")

    def e_contains(self, node: Tree) -> str:
        return self._list_op(node, "CONTAINS")

    def e_in_(self, node: Tree) -> str:
        return self._list_op(node, "IN")

    def e_regex(self, node: Tree) -> str:
        return self._list_op(node, "=~")

    def e_arith(self, node: Tree) -> str:
        return self._binary(node, str(node.children[1]))

    def e_unary(self, node: Tree) -> str:
        op, operand = node.children
        text = self._sub(operand, 10)
        return f"{op}{text}" if str(op) == "-" else text

    def e_prop(self, node: Tree) -> str:
        base = node.children[0]
        text = self._sub(base, _ATOM)
        if isinstance(base, Tree) and base.data in ("index", "kuzu_slice", "case_expr"):
            text = f"({text})"  # Kuzu's parser refuses `xs[1].p` and `CASE ... END.p`
        return f"{text}.{name_text(node.children[1])}"

    def e_index(self, node: Tree) -> str:
        return f"{self._sub(node.children[0], _ATOM)}[{self.emit(node.children[1])}]"

    def e_kuzu_slice(self, node: Tree) -> str:
        base, low, high = node.children
        return f"{self._sub(base, _ATOM)}[{self.emit(low)}:{self.emit(high)}]"

    def _callee(self, callee: object) -> str:
        """A called function's name as written (a reserved word stays bare: `any(..)`)."""
        if isinstance(callee, Tree) and callee.data == "var":
            return str(callee.children[0].children[0]) if isinstance(
                callee.children[0], Tree) else str(callee.children[0])
        return self.emit(callee)

    def e_call(self, node: Tree) -> str:
        callee, *args = node.children
        return f"{self._callee(callee)}({', '.join(self.emit(a) for a in args)})"

    def e_call_star(self, node: Tree) -> str:
        return f"{self._callee(node.children[0])}(*)"

    def e_call_distinct(self, node: Tree) -> str:
        callee, _distinct, *args = node.children
        return f"{self._callee(callee)}(DISTINCT {', '.join(self.emit(a) for a in args)})"

    def e_cast_arg(self, node: Tree) -> str:
        return f"{self.emit(node.children[0])} AS {name_text(node.children[1])}"

    def e_where_arg(self, node: Tree) -> str:
        return f"{self.emit(node.children[0])} WHERE {self.emit(node.children[1])}"

    def e_lambda_(self, node: Tree) -> str:
        return f"{name_text(node.children[0])} -> {self.emit(node.children[1])}"

    def e_lambda2(self, node: Tree) -> str:
        a, b, body = node.children
        return f"({name_text(a)}, {name_text(b)}) -> {self.emit(body)}"

    def e_subquery(self, node: Tree) -> str:
        callee, body = node.children
        keyword = plain_name(callee.children[0]).upper()
        return f"{keyword} {{ {self.emit(body)} }}"

    def e_subquery_pattern(self, node: Tree) -> str:
        return "MATCH " + " ".join(self.emit(c) for c in node.children)

    def e_var(self, node: Tree) -> str:
        return name_text(node.children[0])

    def e_name(self, node: Tree) -> str:
        return name_text(node)

    def e_param(self, node: Tree) -> str:
        return str(node.children[0])

    def e_paren(self, node: Tree) -> str:
        return self.emit(node.children[0]) if precedence(node.children[0]) == _ATOM \
            else f"({self.emit(node.children[0])})"

    def e_list_literal(self, node: Tree) -> str:
        return "[" + ", ".join(self.emit(c) for c in node.children) + "]"

    def e_map_literal(self, node: Tree) -> str:
        """A map as a struct with its keys sorted: Neo4j's maps are keyed by name, the engines'
        structs by position, and they cast one struct to another (a CASE's results, a list's
        elements) field by field in order, so `{a: 1, b: 2}` beside `{b: 3, a: 4}` read 3 for
        `.a`. The translator's own structs (`_neo4j_...` keys) keep their order."""
        entries = node.children
        keys = [plain_name(entry.children[0]) for entry in entries]
        if not any(key.startswith("_neo4j_") for key in keys):
            entries = [entry for _, entry in sorted(zip(keys, entries, strict=True),
                                                    key=lambda pair: pair[0])]
        return "{" + ", ".join(self.emit(c) for c in entries) + "}"

    def e_map_entry(self, node: Tree) -> str:
        return f"{name_text(node.children[0])}: {self.emit(node.children[1])}"

    def e_case_expr(self, node: Tree) -> str:
        parts = ["CASE"]
        rest = node.children
        if rest and not (isinstance(rest[0], Tree) and rest[0].data == "case_when"):
            parts.append(self.emit(rest[0]))
            rest = rest[1:]
        for child in rest:
            if isinstance(child, Tree) and child.data == "case_when":
                parts.append(f"WHEN {self.emit(child.children[0])} "
                             f"THEN {self.emit(child.children[1])}")
            else:
                parts.append(f"ELSE {self.emit(child)}")
        parts.append("END")
        return " ".join(parts)

    def e_int_lit(self, node: Tree) -> str:
        return str(int(str(node.children[0]), 0))

    def e_float_lit(self, node: Tree) -> str:
        text = str(node.children[0])
        return "0" + text if text.startswith(".") else text

    def e_str_lit(self, node: Tree) -> str:
        return quote_string(unquote_string(str(node.children[0])))

    def e_true_lit(self, node: Tree) -> str:
        return "true"

    def e_false_lit(self, node: Tree) -> str:
        return "false"

    def e_null_lit(self, node: Tree) -> str:
        return "NULL"

    def e_raw(self, node: Tree) -> str:
        return str(node.children[0])
