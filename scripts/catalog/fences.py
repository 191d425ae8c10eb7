"""Code fences of a page body: which lines are code, the heading ids outside code, and an unclosed fence as a
problem with its line. Shared by the catalog, the page checks, the HTML safety net and the CJK line joiner."""

from __future__ import annotations

import re

from scripts.catalog.frontmatter import Problem


def scan_fences(lines: list[str]) -> tuple[list[bool], int | None]:
    """Which lines belong to a fenced code block (fence lines included), and the index of a fence that
    is opened but never closed (None if all close).

    A fence opens with 3+ backticks or tildes at any indentation (admonitions and lists indent them) and
    closes with a line of only the same character, at least as many. A shorter inner fence, as in a
    ````markdown block showing ``` code, is content.
    """
    in_code: list[bool] = []
    fence: str | None = None
    opened_at = 0
    for index, line in enumerate(lines):
        stripped = line.strip()
        if fence is None:
            match = re.match(r"(`{3,}|~{3,})", stripped)
            if match:
                fence, opened_at = match.group(1), index
            in_code.append(fence is not None)
        else:
            in_code.append(True)
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                fence = None
    return in_code, (opened_at if fence is not None else None)


def heading_anchors(body: str) -> set[str]:
    """Ids given to headings with attr_list, e.g. `### Title { #amp }`, outside code fences."""
    anchors: set[str] = set()
    lines = body.split("\n")
    for line, in_code in zip(lines, scan_fences(lines)[0], strict=True):
        heading = None if in_code else re.match(r"^#{2,6}\s.*\{([^}]*)\}\s*$", line)
        if heading:
            anchors.update(re.findall(r"#([\w-]+)", heading.group(1), re.ASCII))
    return anchors


def fence_problems(body: str, body_line: int, shown: str) -> list[Problem]:
    """An unclosed fence swallows the rest of the page silently; report where it opened."""
    lines = body.split("\n")
    unclosed = scan_fences(lines)[1]
    if unclosed is None:
        return []
    opening = re.match(r"(`{3,}|~{3,})", lines[unclosed].strip())
    assert opening is not None  # scan_fences reports only a line that opens a fence
    fence = opening.group(1)
    return [Problem(shown, body_line + unclosed, f"code fence '{fence}' opened here is never closed")]
