"""Reading YAML that anyone may have written (question sets, run configurations, reply
scripts) without letting its aliases multiply it.

An alias re-uses an anchored value, and aliases of aliases multiply: a 412-byte file of nested
`&a [*b, *b, ...]` expands to hundreds of millions of values, which the loader builds (1.6 GB,
then a MemoryError) and an error message then prints. The document's node graph is composed
first, where an alias is one shared node, and the values its aliases would add are counted
there; beyond `MAX_ALIAS_EXPANSION` the file is refused before anything is built.
"""

from __future__ import annotations

from typing import Any

import yaml

# libyaml's loader when PyYAML was built with it (10x faster on large files).
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: Values that aliases may add to a document beyond its own nodes. Real files re-use a
#: comparator or a tag list a few thousand times at most; a bomb adds millions.
MAX_ALIAS_EXPANSION = 100_000


class AliasBombError(yaml.YAMLError):
    """A document whose aliases expand beyond `MAX_ALIAS_EXPANSION` values; `line` is the
    1-based line of the alias where the count passed the bound."""

    def __init__(self, line: int, limit: int) -> None:
        super().__init__(f"aliases expand beyond {limit:,} values (from the alias at line "
                         f"{line}); refused")
        self.line, self.problem = line, str(self.args[0])
        self.problem_mark = None


def load_yaml(text: str, limit: int = MAX_ALIAS_EXPANSION) -> Any:
    """`yaml.safe_load(text)`, refusing an alias bomb (`AliasBombError`, a `yaml.YAMLError`).
    A text without `&` has no anchor, hence no alias, and is loaded without the count."""
    if "&" not in text:
        return yaml.load(text, Loader=LOADER)
    loader = LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        check_alias_expansion(node, limit)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def check_alias_expansion(root: yaml.Node, limit: int = MAX_ALIAS_EXPANSION) -> None:
    """Raise `AliasBombError` when the values the document's aliases stand for exceed `limit`.

    Each node's expanded size (itself and everything below it, aliases expanded) is computed
    once, children first, without recursion; a node met again is an alias, and its size is
    what that alias adds. Linear in the composed document, however large its expansion."""
    sizes: dict[int, int] = {}
    seen_at: dict[int, int] = {}   # node id -> how many times it was reached
    added = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if not children_done:
            seen_at[key] = seen_at.get(key, 0) + 1
            if seen_at[key] > 1:          # an alias: it adds the node's whole expansion
                added += sizes.get(key, 1)
                if added > limit:
                    raise AliasBombError(node.start_mark.line + 1, limit)
                continue
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(_children(node)))
            continue
        sizes[key] = 1 + sum(_expanded(child, sizes) for child in _children(node))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _expanded(node: yaml.Node, sizes: dict[int, int]) -> int:
    return sizes.get(id(node), 1)
