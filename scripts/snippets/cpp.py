"""Check 5, C++ against libtorch: tree-sitter (tier 1), and the translation unit g++ checks (tier 2).

Tier 1 (every run, milliseconds): tree-sitter-cpp must find no ERROR or MISSING node. A block marked
`<!-- snippet: fragment -->` holds statements and is wrapped in a function first.

Tier 2 (`check` without --no-cpp, run by `gxx`): `g++ -std=c++20 -fsyntax-only` against the headers shipped
in the installed torch wheel. All cpp blocks of a page go into ONE translation unit (including
<torch/torch.h> costs ~10 s and ~1 GB, so it is paid once per page): each block sits in its own namespace,
its `#include` lines are hoisted to the top. The unit does not depend on the page it came from: `#line`
directives put block k's code at lines of UNIT_FILE of its own (`units.Layout`), so `__FILE__` and
`__LINE__` are the same on any page, and g++'s positions are mapped back to the page
(`relative_record`, `apply_record`). Two pages share one compile only when their units are byte-identical,
comments included (a `//` comment ending in a backslash swallows the next line). Warnings about deprecated
declarations are kept as the block's deprecation.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from scripts.snippets.model import Diagnostic, Snippet
from scripts.snippets.units import Layout

__all__ = [
    "UNIT_FILE",
    "CompileResult",
    "apply_record",
    "build_translation_unit",
    "relative_record",
    "tree_sitter_problems",
]

UNIT_FILE = "snippet.cpp"  # the file name g++ reports for a unit's code (`#line`), on every page

FRAGMENT_HEAD = "void snippet_fragment() {"
INCLUDE_RE = re.compile(r"^\s*#\s*include\b")
GXX_DIAG_RE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<kind>fatal error|error|warning|note): (?P<msg>.*)$"
)


# --- tier 1: tree-sitter ------------------------------------------------------------------------


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


# --- tier 2: the translation unit and what g++ said about it ----------------------------------------------


@dataclass
class CompileResult:
    page: str
    problems: list[Diagnostic] = field(default_factory=list)
    deprecations: dict[str, str] = field(default_factory=dict)  # snippet id -> message
    compiled: list[str] = field(default_factory=list)  # ids checked by g++
    shared: bool = False  # verdict taken from another page with byte-identical blocks
    seconds: float = 0.0


def _line_directive(line: int) -> str:
    return f'#line {line} "{UNIT_FILE}"'


def build_translation_unit(snippets: list[Snippet]) -> str:
    """One C++ translation unit holding every given cpp snippet of a page (see the module docstring): the
    same text for any page holding the same blocks."""
    layout = Layout.of(snippets)
    head = ["// generated by scripts.snippets: one namespace per code block"]
    if any(s.directives.get("fragment") for s in snippets):
        head += ["#include <torch/torch.h>", "#include <iostream>"]
    body: list[str] = []
    for k, (s, start) in enumerate(zip(snippets, layout.starts, strict=True), start=1):
        lines = s.code.split("\n")
        for n, line in enumerate(lines):
            if INCLUDE_RE.match(line):
                head.append(_line_directive(start + n))
                head.append(line)
        if s.directives.get("fragment"):
            body.append(f"namespace snippet_{k} {{ {FRAGMENT_HEAD}")
        else:
            body.append(f"namespace snippet_{k} {{")
        body.append(_line_directive(start))
        body += ["" if INCLUDE_RE.match(line) else line for line in lines]  # hoisted includes become blank
        body.append("} }" if s.directives.get("fragment") else "}")
    return "\n".join(head + body) + "\n"


INCLUDED_FROM_RE = re.compile(rf"^(?:In file included|\s+) from {re.escape(UNIT_FILE)}:(\d+)[:,]")
CONTEXT_RE = re.compile(rf"^{re.escape(UNIT_FILE)}:(\d+):(\d+):")


def relative_record(stderr: str, returncode: int, snippets: list[Snippet]) -> dict:
    """g++'s verdict with positions relative to each block's code (block index, code line, code column)."""
    layout = Layout.of(snippets)
    record: dict = {"returncode": returncode, "errors": [], "deprecations": {}, "other": []}
    context: tuple[int, int] | None = None

    def relative(line: int, col: int) -> tuple[int, int, int]:
        for k, (start, size) in enumerate(zip(layout.starts, layout.sizes, strict=True)):
            if start <= line < start + size:
                return k, line - start + 1, max(col, 1)
        k = max([i for i, start in enumerate(layout.starts) if start <= line] or [0])  # a wrapper line
        return k, min(max(line - layout.starts[k] + 1, 1), layout.sizes[k]), max(col, 1)

    for raw in stderr.splitlines():
        match = GXX_DIAG_RE.match(raw)
        if not match:
            # "In file included from", "In instantiation of ...", "required from here" name unit positions too.
            located = INCLUDED_FROM_RE.match(raw)
            loc = CONTEXT_RE.match(raw)
            if located:
                context = (int(located.group(1)), 1)
            elif loc:
                context = (int(loc.group(1)), int(loc.group(2)))
            continue
        path, line, col, kind, msg = match.group("path", "line", "col", "kind", "msg")
        line, col = int(line), int(col)
        if kind == "note":
            if path == UNIT_FILE and "required from" in msg:
                context = (line, col)
            continue
        if path != UNIT_FILE:
            if kind == "warning":
                continue
            if context is None:
                record["other"].append(f"{path}:{line}:{col}: {msg}")
                continue
            msg = f"{msg} (in {Path(path).name}:{line})"
            line, col = context
        k, code_line, code_col = relative(line, col)
        if kind == "warning":
            if "deprecated" in msg and str(k) not in record["deprecations"]:
                record["deprecations"][str(k)] = re.sub(r"\s*\[-W[\w-]+\]$", "", msg)
            continue
        record["errors"].append({"block": k, "line": code_line, "col": code_col, "message": msg})
        context = None
    if returncode != 0 and not record["errors"] and not record["other"]:
        record["other"].append("g++ failed: " + stderr.strip()[-500:])
    return record


def apply_record(record: dict, snippets: list[Snippet]) -> CompileResult:
    """Turn a g++ verdict (of this page's unit, or of a byte-identical one) into diagnostics at this page's
    lines. A block-level failure (`block_failures`: g++ could not finish that block) is at its fence."""
    page = snippets[0].page
    result = CompileResult(page=page, compiled=[s.id for s in snippets])
    for error in record["errors"]:
        s = snippets[error["block"]]
        result.problems.append(s.diag(error["line"], error["col"], f"g++: {error['message']}", check="cpp"))
    for k, message in record.get("block_failures", {}).items():
        s = snippets[int(k)]
        result.problems.append(Diagnostic(page, s.fence_line, 1, f"g++: {message}", "error", s.id, "cpp"))
    for message in record["other"]:
        first = snippets[0]
        result.problems.append(Diagnostic(page, first.fence_line, 1, f"g++: {message}", "error", first.id, "cpp"))
    for k, message in record["deprecations"].items():
        result.deprecations[snippets[int(k)].id] = message
    return result
