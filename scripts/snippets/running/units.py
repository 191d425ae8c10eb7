"""Units, the requests that run them, and when one run may stand for another page's unit.

A unit is one python/pycon block, or the blocks of one `group` (they share a process and a namespace).
What a unit's runner receives does not depend on the page it is on: its blocks are compiled under one
file name (UNIT_FILE) at lines of the unit's own (`Layout`: the first block from line 1, one blank line
between blocks), and the checker maps lines back to the page. So two units whose blocks are byte-identical
(code with its comments, directives, the output a pycon block shows) send byte-identical requests
(`unit_key` is those requests), and only then is one run judged for both pages (`assign_units`,
`run.share_unit`). A comment is code here: `# doctest: +SKIP` changes what runs, and in C++ a `//`
comment ending in a backslash swallows the next line.
"""

from __future__ import annotations

import doctest
import json
from dataclasses import dataclass

from scripts.snippets.directives import MAX_TIMEOUT
from scripts.snippets.model import Snippet
from scripts.snippets.parse import pycon_examples

__all__ = ["UNIT_FILE", "Layout", "assign_units", "unit_key", "unit_requests", "unit_timeouts", "units_of"]

UNIT_FILE = "snippet.md"  # the file name every unit's code is compiled under, inside the sandbox


def units_of(snippets: list[Snippet]) -> list[list[Snippet]]:
    """A page's units in run order, each as its blocks. Units share nothing, so a group's blocks run one
    after the other, where its first block stands: no two units' processes are ever alive at once."""
    order: dict[str, list[Snippet]] = {}
    for s in snippets:
        order.setdefault(s.directives.get("group") or f"block {s.id}", []).append(s)
    return list(order.values())


@dataclass(frozen=True)
class Layout:
    """Where each block of a unit sits in UNIT_FILE: block k's first code line is starts[k]."""

    starts: tuple[int, ...]
    sizes: tuple[int, ...]

    @classmethod
    def of(cls, blocks: list[Snippet]) -> Layout:
        starts, sizes, line = [], [], 1
        for s in blocks:
            size = s.code.count("\n") + 1
            starts.append(line)
            sizes.append(size)
            line += size + 1
        return cls(tuple(starts), tuple(sizes))

    def page_line(self, blocks: list[Snippet], line: int, default: int) -> int:
        """The page line of `line` of UNIT_FILE (in `blocks`, laid out by this layout), or `default`."""
        for block, start, size in zip(blocks, self.starts, self.sizes, strict=True):
            if start <= line < start + size:
                return block.line + line - start
        return default


def unit_timeouts(blocks: list[Snippet], default: int) -> list[int]:
    """Each block's time limit: its `timeout=` directive or the check's, at most MAX_TIMEOUT."""
    return [min(int(s.directives.get("timeout", default)), MAX_TIMEOUT) for s in blocks]


def unit_requests(blocks: list[Snippet], default_timeout: int) -> list[dict]:
    """The requests that run a unit, without the block ids: the same for any page holding the same blocks."""
    layout = Layout.of(blocks)
    grouped = any(s.directives.get("group") for s in blocks)
    requests = []
    for s, start, limit in zip(blocks, layout.starts, unit_timeouts(blocks, default_timeout), strict=True):
        request: dict = {
            "op": "run",
            "lang": s.lang,
            "filename": UNIT_FILE,
            "line": start,
            "code": s.code,
            "group": "unit" if grouped else None,
            "timeout": limit,
            "examples": [],
        }
        if s.lang == "pycon":
            request["examples"] = [
                {"source": ex.source, "line": start + ex.lineno, "skip": bool(ex.options.get(doctest.SKIP))}
                for ex in pycon_examples(s.code)
            ]
        requests.append(request)
    return requests


def unit_key(blocks: list[Snippet], default_timeout: int = 0) -> str:
    """What a unit's run depends on, byte for byte: the requests that run it and the blocks' directives."""
    return json.dumps(
        {"requests": unit_requests(blocks, default_timeout), "directives": [s.directives for s in blocks]},
        sort_keys=True,
        ensure_ascii=False,
    )


def assign_units(
    by_page: dict[str, list[Snippet]], default_timeout: int = 0
) -> tuple[list[list[Snippet]], dict[str, list[tuple[list[Snippet], list[Snippet]]]]]:
    """Each distinct unit (`unit_key`) runs once, on the first page that has it: (the units to run, per
    page the units it borrows as (its blocks, the blocks that run))."""
    owner: dict[str, list[Snippet]] = {}
    own: list[list[Snippet]] = []
    borrowed: dict[str, list[tuple[list[Snippet], list[Snippet]]]] = {}
    for page, group in by_page.items():
        for blocks in units_of(group):
            key = unit_key(blocks, default_timeout)
            if key in owner:
                borrowed.setdefault(page, []).append((blocks, owner[key]))
            else:
                owner[key] = blocks
                own.append(blocks)
    return own, borrowed
