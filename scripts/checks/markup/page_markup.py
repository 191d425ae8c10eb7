"""A page's own content, rendered as MkDocs renders it (the same Markdown extensions and settings) before MkDocs
does, and held to what the site's code relies on. Each problem is a `Problem` with the page's file and line.

- **Nesting within the stack MkDocs has.** Python-Markdown recurses once or more per level of a nested list,
  admonition, `<div markdown>` or `**` run: a few hundred levels end MkDocs's build in a RecursionError. Here
  a line indented more than `MAX_INDENT` columns is refused at once, and the page is rendered with
  `STACK_BUDGET` frames to spare, well under what MkDocs has left when it renders a page; a page that needs
  more is refused, at the first line whose text makes it too deep (found by rendering ever shorter beginnings
  of the page).
- **Reserved markup.** No id, class or `data-*` attribute the site's scripts or Material's components rely on
  (scripts/checks/markup/reserved.py), written as Markdown attributes (`{ #compare-data }`, `{ .snippet-ok }`), as raw
  HTML (entities decoded, parsed as a browser parses it), or made by an extension from the author's words (a
  heading `## Compare data` gets the id `compare-data`; `!!! md-button` the class `md-button`). A `data-*`
  attribute whose name the page's text does not hold was made by an extension (pymdownx.tabbed's `data-tabs`)
  and is left alone.
- **Bidirectional and invisible controls** (scripts/catalog/codepoints.py) in headings (they title the page,
  the table of contents and search results), ids and classes.

The check renders code blocks without highlighting (their text holds no markup) and parses the result without
their text, which keeps it to about a tenth of a build's time.
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import markdown
from selectolax.lexbor import LexborHTMLParser, LexborNode

from scripts.catalog.codepoints import invisible_problem
from scripts.catalog.fences import scan_fences
from scripts.catalog.frontmatter import Problem
from scripts.checks.markup.reserved import Reserved

# Frames the check's render may use above the frame that starts it. The deepest real page needs about a dozen;
# MkDocs renders a page some 20 frames deep, below Python's limit of 1,000, and its hooks wrap a release page's
# text in a few more levels: what renders here renders there, with hundreds of frames to spare.
STACK_BUDGET = 400
# Deeper indentation than this is refused before rendering: Python-Markdown's time grows with the square of a
# list's depth, and a thousand levels would take minutes to fail. The deepest real page indents 35 columns.
MAX_INDENT = 128
MKDOCS_BUILTIN_EXTENSIONS = ["toc", "tables", "fenced_code"]  # mkdocs/config/defaults.py: markdown_extensions
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
# A code block's text, rendered without highlighting: escaped text, no markup (see the module docstring).
CODE_BLOCK_TEXT_RE = re.compile(r"(<pre\b[^>]*>\s*<code\b[^>]*>)[^<]*(</code>\s*</pre>)")


@dataclass(frozen=True)
class MarkdownSetup:
    """The Markdown extensions and their settings MkDocs renders pages with (config.markdown_extensions and
    config.mdx_configs once MkDocs has read mkdocs.yml)."""

    extensions: tuple = ()
    configs: dict = field(default_factory=dict, hash=False)


def setup_from_project(root: Path) -> MarkdownSetup:
    """The setup of `root/mkdocs.yml`, normalised by MkDocs's own option (its built-in extensions added), for
    the command line; MkDocs's defaults when the project has no mkdocs.yml."""
    from mkdocs.config.config_options import MarkdownExtensions
    from mkdocs.utils.yaml import yaml_load

    config_file = root / "mkdocs.yml"
    raw: object = []
    if config_file.is_file():
        with config_file.open("rb") as stream:
            raw = (yaml_load(stream) or {}).get("markdown_extensions") or []
    option = MarkdownExtensions(builtins=MKDOCS_BUILTIN_EXTENSIONS, configkey="mdx_configs")
    extensions = option.validate(raw)
    return MarkdownSetup(tuple(extensions), dict(option.configdata))


@dataclass
class _Finding:
    message: str
    needles: tuple[str, ...]


def _stack_depth() -> int:
    frame: FrameType | None = sys._getframe()
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


class PageRenderer:
    """Renders page text as MkDocs would, within STACK_BUDGET frames; one Markdown instance, reset per page."""

    def __init__(self, setup: MarkdownSetup):
        configs = {name: dict(values) for name, values in setup.configs.items()}
        if "pymdownx.highlight" in setup.extensions:
            configs["pymdownx.highlight"] = {**configs.get("pymdownx.highlight", {}), "use_pygments": False}
        self.extensions = list(setup.extensions)
        self.configs = configs
        self._md: markdown.Markdown | None = None

    def render(self, text: str) -> str:
        """The HTML of `text`; RecursionError (or MemoryError) when it nests too deep to render in the budget."""
        if self._md is None:
            self._md = markdown.Markdown(extensions=self.extensions, extension_configs=self.configs)
        md = self._md
        md.reset()
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(min(limit, _stack_depth() + STACK_BUDGET))
        try:
            return md.convert(text)
        except (RecursionError, MemoryError):
            self._md = None  # a half-finished conversion may leave an extension's state behind
            raise
        finally:
            sys.setrecursionlimit(limit)

    def renders(self, text: str) -> bool:
        try:
            self.render(text)
        except (RecursionError, MemoryError):
            return False
        return True

    def first_line_too_deep(self, lines: list[str]) -> int:
        """The index of the first line with which the page's beginning no longer renders (all of it does not)."""
        good, bad = 0, len(lines)
        while good + 1 < bad:
            middle = (good + bad) // 2
            if self.renders("\n".join(lines[:middle])):
                good = middle
            else:
                bad = middle
        return bad - 1


def _shown(value: str) -> str:
    return value if value.isascii() and value.isprintable() else json.dumps(value, ensure_ascii=True)[1:-1]


def _text(node: LexborNode) -> str:
    """A heading's text as a reader sees it, without the permalink the toc extension appends to it."""
    text = node.text(deep=True)
    for anchor in node.css("a.headerlink"):
        mark = anchor.text(deep=True)
        at = text.rfind(mark)
        text = text[:at] + text[at + len(mark) :] if mark and at >= 0 else text
    return " ".join(text.split())


def _elements(rendered: str) -> Iterator[tuple[str, dict[str, str], LexborNode]]:
    """Every element of rendered HTML as a browser builds it inside a <div> of <body> (Lexbor, scripting on, as
    the policy parses: scripts/checks/markup/html_syntax.py), <template> contents included: (name, attributes, node)."""
    first = LexborHTMLParser(rendered, is_fragment=True, scripting=True).root
    walks = [first.traverse()] if first else []
    for walk in walks:
        for node in walk:
            name = node.tag
            if not name or name[0] == "-":  # comments and the like
                continue
            yield name.lower(), {key: value or "" for key, value in node.attributes.items()}, node
            if name.lower() == "template":
                walks += [fragment.traverse() for fragment in node.template_fragments()]


def _element_findings(tag: str, attributes: dict[str, str], node: LexborNode, reserved: Reserved, source: str):
    text = _text(node) if tag in HEADINGS else ""
    found: list[_Finding] = []

    def refuse(what: str, invisible: str | None, reason: str | None, needle: str) -> None:
        if invisible:
            found.append(_Finding(f"{what}: {invisible}", (needle, text)))
        elif reason:
            found.append(_Finding(f"{what}: {reason}; page content may not use it, choose another", (needle, text)))

    for name, value in attributes.items():
        if name == "id":
            refuse(f'<{tag} id="{_shown(value)}">', invisible_problem(value, "an id"), reserved.id_reason(value), value)
        elif name == "class":
            for token in value.split():
                what = f'<{tag} class="{_shown(token)}">'
                refuse(what, invisible_problem(token, "a class"), reserved.class_reason(token), token)
        elif name.lower() in source:  # a data-* attribute an extension made is not in the page's text
            refuse(f"<{tag} {_shown(name)}=…>", None, reserved.attribute_reason(name), name)
    if tag in HEADINGS:
        invisible = invisible_problem(text, "a heading (headings title the page, its contents and search results)")
        refuse(f"<{tag}> {_shown(text)[:60]}", invisible, None, text)
    return found


def _line_of(needles: tuple[str, ...], lines: list[str], in_code: list[bool]) -> int | None:
    """The index of the first line (outside code blocks if one there holds it) holding a needle, entities
    decoded, case ignored."""
    searchable = [html.unescape(line).lower() for line in lines]
    for needle in (n.lower() for n in needles if n):
        for outside_code_only in (True, False):
            for index, line in enumerate(searchable):
                if needle in line and not (outside_code_only and in_code[index]):
                    return index
    return None


def page_markup_problems(
    body: str, body_line: int, shown: str, renderer: PageRenderer, reserved: Reserved
) -> list[Problem]:
    """Every problem of a page's content (its body, after the front matter; `body_line`: the line it starts on)."""
    lines = body.split("\n")
    too_deep = "nested too deeply for MkDocs to render (lists, quotes, admonitions, HTML blocks or emphasis inside one another): flatten it"
    for index, line in enumerate(lines):
        expanded = line.expandtabs(4)
        if len(expanded) - len(expanded.lstrip(" ")) > MAX_INDENT:
            return [Problem(shown, body_line + index, f"indented more than {MAX_INDENT} columns: {too_deep}")]
    try:
        rendered = renderer.render(body)
    except (RecursionError, MemoryError):
        return [Problem(shown, body_line + renderer.first_line_too_deep(lines), too_deep)]
    try:
        elements = list(_elements(CODE_BLOCK_TEXT_RE.sub(r"\1\2", rendered)))
    except (RecursionError, MemoryError):
        return [Problem(shown, body_line, f"the page's HTML is too large or {too_deep}")]
    source = body.lower()
    in_code = scan_fences(lines)[0]
    problems = []
    for tag, attributes, node in elements:
        for finding in _element_findings(tag, attributes, node, reserved, source):
            written = _line_of(finding.needles, lines, in_code)
            problems.append(Problem(shown, body_line + (written or 0), finding.message))
    return problems
