"""Check 5, tier 1: C++ syntax by tree-sitter-cpp (every run, milliseconds): no ERROR or MISSING node. A block
marked `<!-- snippet: fragment -->` holds statements and is wrapped in a function first. The syntax tier
(scripts/snippets/parse.py) asks it; tier 2, g++ against libtorch, is cpp.py and gxx.py."""

from __future__ import annotations

import functools

from scripts.snippets.model import Diagnostic, Snippet

FRAGMENT_HEAD = "void snippet_fragment() {"


@functools.lru_cache(maxsize=1)
def _parser():
    import tree_sitter
    import tree_sitter_cpp

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_cpp.language()))


def _syntax_errors(source: str) -> list[tuple[int, int, str]]:
    """(0-based row, 0-based column in characters, message) of each ERROR/MISSING node."""
    data = source.encode("utf-8")
    tree = _parser().parse(data)
    if not tree.root_node.has_error:
        return []
    lines = data.split(b"\n")
    found: list[tuple[int, int, str]] = []

    def column(row: int, byte_col: int) -> int:
        return len(lines[row][:byte_col].decode("utf-8", errors="replace")) if row < len(lines) else byte_col

    stack = [tree.root_node]  # depth first, in source order, without recursion (code may nest 3,000 deep)
    while stack:
        node = stack.pop()
        if node.is_missing:
            row, col = node.start_point
            found.append((row, column(row, col), f"expected '{node.type}'"))
        elif node.type == "ERROR":
            row, col = node.start_point
            text = data[node.start_byte : node.end_byte].decode("utf-8", errors="replace").strip().split("\n")[0]
            found.append((row, column(row, col), f"syntax error near '{text[:40]}'"))
        elif node.has_error:
            stack.extend(reversed(node.children))
    return found


def tree_sitter_problems(snippet: Snippet) -> list[Diagnostic]:
    try:
        _parser()
    except ImportError:
        return [
            snippet.diag(
                1,
                1,
                "tree-sitter is not installed: pip install tree-sitter==0.26.1 tree-sitter-cpp==0.23.4",
                check="parse",
            )
        ]
    fragment = bool(snippet.directives.get("fragment"))
    source = f"{FRAGMENT_HEAD}\n{snippet.code}\n}}\n" if fragment else snippet.code
    shift = 1 if fragment else 0
    errors = _syntax_errors(source)
    problems = []
    seen: set[int] = set()
    for row, col, message in errors:
        code_line = min(max(row + 1 - shift, 1), max(snippet.code.count("\n") + 1, 1))
        if code_line in seen:
            continue
        seen.add(code_line)
        problems.append(snippet.diag(code_line, col + 1, f"C++ syntax (tree-sitter): {message}", check="parse"))
    if problems and not fragment and not _syntax_errors(f"{FRAGMENT_HEAD}\n{snippet.code}\n}}\n"):
        problems = [
            snippet.diag(
                1,
                1,
                "these are C++ statements, not a translation unit: add <!-- snippet: fragment --> before the fence",
                check="parse",
            )
        ]
    return problems
