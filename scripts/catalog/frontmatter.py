"""Strict reading of a page's front matter, with the line of every value, for messages as `path:line: message`.

Used by the release catalog (scripts/catalog/) and by the site-wide page checks (scripts/checks/pages.py).
YAML is only *composed* here (nodes with positions), never constructed into Python objects, so:

- a value keeps its text as written (`version: 2.10` stays "2.10", dates stay strings until checked);
- an explicit tag (`title: !custom "x"`) or an alias/anchor is refused instead of silently changing what a
  field means (MkDocs would otherwise render the whole front matter as page text). Anchors and aliases are
  found in the token stream, before anything is composed: nine short lines of aliases to aliases expand
  into billions of nodes, and walking them would hang the build;
- a value may not hold a code point XML 1.0 cannot carry (C0 controls but tab and newline, lone surrogates,
  Unicode noncharacters such as U+FFFE): every text reaches the RSS feed, which would no longer be XML; nor a
  bidirectional or invisible control (scripts/catalog/codepoints.py);
- nesting is bounded (`MAX_DEPTH`, counted on the tokens before anything is composed): a value nested a
  thousand deep would exhaust the stack of whatever walks it;
- duplicate keys are found at any depth.

**The front matter is what MkDocs reads as the page's metadata, and nothing else** (mkdocs/utils/meta.py, which
Material's templates print from): a YAML block opened by a line `---` (MkDocs also accepts spaces after it)
and closed by the first later line `---` or `...` (spaces allowed) that a line break ends, at least one line
further down; or, when there is no such block, MultiMarkdown-style `key: value` lines at the very top of the
page. A fence line with spaces after it and MultiMarkdown metadata are refused with their line, so every page's
metadata is read here, by the same rules, before MkDocs reads it (overrides/hooks/page_meta_text.py then checks
that MkDocs read exactly this).

Nothing here knows what a release is: `Reader` offers typed getters (one-line text, URL, list of strings …)
that record a problem and return None instead of raising, so one run reports every problem at once.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from scripts.catalog.codepoints import INVISIBLE_RE, NOT_XML_CHARACTERS_RE, describe

STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",  # implicit for dates; the value stays text (nothing is constructed)
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}
# Characters that have no business in a one-line text field: control characters (a newline would start a
# table row or a new Markdown block wherever the text is spliced), and the Unicode line separators.
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
NEWLINE_RE = re.compile(r"[\n\r]")
# A URL we are willing to put in an href: https, a real host, and only URL-safe characters (no quotes,
# brackets, spaces or backslashes that could end an attribute or a Markdown link).
URL_SAFE_RE = re.compile(
    r"^https://[A-Za-z0-9.-]+(:\d+)?(/[A-Za-z0-9\-._~%!$&*+,;=:@/]*)?(\?[A-Za-z0-9\-._~%!$&*+,;=:@/?]*)?(#[A-Za-z0-9\-._~%!$&*+,;=:@/?]*)?$",
    re.ASCII,
)
HOST_RE = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$")
# MkDocs's own rules for a page's metadata (mkdocs/utils/meta.py: YAML_RE, META_RE), line by line.
YAML_FENCE_OPEN_RE = re.compile(r"^-{3}[ \t]*$")
YAML_FENCE_CLOSE_RE = re.compile(r"^(?:\.{3}|-{3})[ \t]*$")
MULTIMARKDOWN_META_RE = re.compile(r"^[ ]{0,3}(?P<key>[A-Za-z0-9_-]+):")
# How deep front matter may nest (mappings and lists, counted on YAML's tokens). A release page needs 5.
MAX_DEPTH = 32
_OPENING_TOKENS = (
    yaml.BlockMappingStartToken,
    yaml.BlockSequenceStartToken,
    yaml.FlowMappingStartToken,
    yaml.FlowSequenceStartToken,
)
_CLOSING_TOKENS = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class PageDataError(Exception):
    """Raised with every problem found, so one run reports them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems), key=lambda p: (p.path, p.line, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))


def shown_path(path: Path) -> str:
    """A path as messages show it: relative to the working directory when it is inside it."""
    try:
        return path.absolute().relative_to(Path.cwd().absolute()).as_posix()
    except ValueError:
        return path.as_posix()


def read_page_text(path: Path, shown: str) -> tuple[str | None, list[Problem]]:
    """The page's text (BOM dropped, CRLF and lone CR normalised), or a problem naming the bad line."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        return None, [
            Problem(shown, 1, "is a folder, not a Markdown file: rename it (MkDocs would try to read it as a page)")
        ]
    except OSError as exc:
        return None, [Problem(shown, 1, f"cannot be read: {exc.strerror or exc}")]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [
            Problem(
                shown,
                line,
                f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at column {column}): save the file as UTF-8",
            )
        ]
    return text.replace("\r\n", "\n").replace("\r", "\n"), []


def split_front_matter(text: str) -> tuple[str, str, int] | None:
    """Return (front matter, body, line of the body's first line) as MkDocs splits them, or None when no
    closing line is found: the first line `---` or `...` (spaces after it allowed) from the third line on that
    a line break ends (MkDocs takes the second line as YAML even when it is `---`)."""
    lines = text.split("\n")
    for i in range(2, len(lines) - 1):
        if YAML_FENCE_CLOSE_RE.match(lines[i]):
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1 :]), i + 2
    return None


def opens_front_matter(text: str) -> bool:
    """Whether the page's first line opens a YAML block for MkDocs (`---`, spaces after it allowed)."""
    return YAML_FENCE_OPEN_RE.match(text.split("\n", 1)[0]) is not None


@dataclass
class FrontMatter:
    root: yaml.MappingNode | None  # None when the page has no front matter
    body: str
    body_line: int  # line number of the body's first line
    offset: int = 2  # line number of the first front matter line


def _walk(node: yaml.Node):
    """Every node under `node` (itself included), depth first, without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, yaml.MappingNode):
            for key, value in reversed(current.value):
                stack += [value, key]
        elif isinstance(current, yaml.SequenceNode):
            stack += reversed(current.value)


# libyaml's composer when PyYAML has it (about ten times faster than the pure-Python one; every build parses
# every page), else the pure-Python one. Either way only nodes are composed, nothing is constructed.
_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _token_problems(front: str, shown: str, offset: int) -> list[Problem]:
    """Anchors (&name), aliases (*name) and nesting deeper than MAX_DEPTH, found by scanning tokens: nothing
    is composed or expanded, so an alias bomb or a value nested a thousand deep costs as little as its text.
    Malformed YAML is left to the composer, which names its line."""
    problems: list[Problem] = []
    depth = 0
    try:
        for token in yaml.scan(front, Loader=_COMPOSER):
            if isinstance(token, _OPENING_TOKENS):
                depth += 1
                if depth > MAX_DEPTH:
                    return problems + [
                        Problem(
                            shown,
                            offset + token.start_mark.line,
                            f"front matter nested more than {MAX_DEPTH} deep: flatten it (lists and mappings this deep are never needed)",
                        )
                    ]
            elif isinstance(token, _CLOSING_TOKENS):
                depth -= 1
            elif isinstance(token, yaml.AliasToken):
                problems.append(
                    Problem(
                        shown,
                        offset + token.start_mark.line,
                        f"YAML aliases (*{token.value}) are not allowed in front matter: write the value out",
                    )
                )
            elif isinstance(token, yaml.AnchorToken):
                problems.append(
                    Problem(
                        shown,
                        offset + token.start_mark.line,
                        f"YAML anchors (&{token.value}) are not allowed in front matter: write the value out",
                    )
                )
    except yaml.YAMLError:
        pass
    return problems


def _code_point_problems(root: yaml.Node, shown: str, offset: int) -> list[Problem]:
    """Every scalar (field names too) holding a code point XML cannot carry, or a bidirectional or invisible
    control, at the line that holds it."""
    problems = []
    for node in _walk(root):
        if not isinstance(node, yaml.ScalarNode):
            continue
        not_xml = NOT_XML_CHARACTERS_RE.search(node.value)
        bad = not_xml or INVISIBLE_RE.search(node.value)
        if bad:
            line = offset + node.start_mark.line
            if node.style in ("|", ">"):  # a block scalar's text starts on the line after its indicator
                line += 1 + node.value.count("\n", 0, bad.start())
            why = (
                "a control character, noncharacter or lone surrogate that XML, and so the feed, cannot carry"
                if not_xml
                else "a bidirectional or invisible control makes text read differently from what it is"
            )
            problems.append(
                Problem(shown, line, f"{describe(bad.group())} is not allowed in front matter ({why}): remove it")
            )
    return problems


def _fence_problems(text: str, shown: str, body_line: int) -> list[Problem]:
    """The opening and closing lines of a YAML block must be `---` (or `...` to close) alone: MkDocs also reads
    them with spaces after, which no one sees."""
    lines = text.split("\n")
    return [
        Problem(
            shown,
            number,
            f"the front matter's {which} line has spaces after '{lines[number - 1].strip()}': remove them",
        )
        for number, which in ((1, "opening"), (body_line - 1, "closing"))
        if lines[number - 1] != lines[number - 1].rstrip(" \t")
    ]


def multimarkdown_problem(text: str, shown: str) -> Problem | None:
    """MkDocs reads `key: value` lines at the top of a page that has no YAML block as metadata (MultiMarkdown
    style), and Material prints some of it unescaped: refused, so all metadata is in one checked place."""
    match = MULTIMARKDOWN_META_RE.match(text.split("\n", 1)[0])
    if match is None:
        return None
    return Problem(
        shown,
        1,
        f"MkDocs would read '{match.group('key')}:' on the page's first line as metadata (MultiMarkdown style): "
        "put metadata in a '---' front matter block, and start the page's text after it (or after an empty line)",
    )


def parse_front_matter(text: str, shown: str, required: bool) -> tuple[FrontMatter | None, list[Problem]]:
    """Split and compose the front matter, found as MkDocs finds it. `required`: a page without one is a
    problem (release pages)."""
    if not opens_front_matter(text):
        meta = multimarkdown_problem(text, shown)
        if meta:
            return None, [meta]
        if required:
            return None, [Problem(shown, 1, "missing front matter: a release page must start with a '---' line")]
        return FrontMatter(None, text, 1), []
    split = split_front_matter(text)
    if split is None:
        lines = text.split("\n")
        if len(lines) > 2 and YAML_FENCE_CLOSE_RE.match(lines[-1]):
            return None, [
                Problem(
                    shown,
                    len(lines),
                    "the front matter's closing line ends the file without a line break, so MkDocs would not read it as front matter: add one",
                )
            ]
        return None, [Problem(shown, 1, "front matter is not closed: add a '---' line after it")]
    front, body, body_line = split
    offset = 2
    refused = _fence_problems(text, shown, body_line)
    root, problems = compose_document(front, shown, offset)
    if refused or problems:
        return None, refused + problems
    if root is None:
        if required:
            return None, [Problem(shown, 1, "front matter is empty")]
        return FrontMatter(None, body, body_line, offset), []
    return FrontMatter(root, body, body_line, offset), []


def compose_document(
    front: str, shown: str, offset: int, what: str = "front matter"
) -> tuple[yaml.MappingNode | None, list[Problem]]:
    """Compose one YAML document strictly (front matter, or a data file with `offset` 1): its root mapping (None
    when empty), or the problems with their lines: anchors, aliases and nesting too deep (from the tokens, before
    composing would expand or recurse), malformed YAML, a root that is not a mapping, code points XML cannot carry,
    unknown tags, duplicate or non-text field names."""
    root, problems = _composed(front, shown, offset, what)
    return root, list(problems)


# A release page's front matter is read by the page check, the catalog and the snippet extractor, in one build:
# composed once (nothing changes a composed node).
@functools.lru_cache(maxsize=1024)
def _composed(front: str, shown: str, offset: int, what: str) -> tuple[yaml.MappingNode | None, list[Problem]]:
    unsafe = _token_problems(front, shown, offset)
    if unsafe:  # composing would expand the aliases, or recurse as deep as the nesting
        return None, unsafe
    loader = _COMPOSER(front)
    try:
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        # Where the broken construct starts (an unclosed quote or bracket) when YAML says so, else where it broke.
        mark = exc.context_mark or exc.problem_mark
        line = offset + (mark.line if mark else 0)
        return None, [Problem(shown, line, f"malformed {what}: {exc.problem or exc}")]
    except yaml.YAMLError as exc:
        return None, [Problem(shown, 1, f"malformed {what}: {exc}")]
    except (RecursionError, MemoryError):
        return None, [Problem(shown, 1, f"{what} too deeply nested or too large to read")]
    if root is None:
        return None, []
    if not isinstance(root, yaml.MappingNode):
        return None, [Problem(shown, offset + root.start_mark.line, f"malformed {what}: expected 'key: value' lines")]
    problems = _code_point_problems(root, shown, offset)
    for node in _walk(root):
        if node.tag not in STANDARD_TAGS:
            problems.append(
                Problem(
                    shown,
                    offset + node.start_mark.line,
                    f"unknown YAML tag '{node.tag}': front matter values are plain text, lists and mappings",
                )
            )
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, _ in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        problems.append(Problem(shown, offset + key.start_mark.line, f"duplicate field '{key.value}'"))
                    seen.add(key.value)
                else:
                    problems.append(Problem(shown, offset + key.start_mark.line, "a field name must be plain text"))
    return (None, problems) if problems else (root, [])


class Reader:
    """Typed access to composed YAML nodes; every problem is recorded with its line, never raised."""

    def __init__(self, shown: str, offset: int = 2):
        self.shown = shown
        self.offset = offset
        self.problems: list[Problem] = []

    def line(self, node: yaml.Node) -> int:
        return self.offset + node.start_mark.line

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.shown, line, message))

    def fields(
        self,
        node: yaml.Node,
        where: str,
        allowed: tuple[str, ...],
        required: tuple[str, ...] = (),
        line: int | None = None,
    ) -> dict[str, tuple[yaml.Node, yaml.Node]] | None:
        """The mapping's fields by name, after reporting unknown and missing ones."""
        if not isinstance(node, yaml.MappingNode):
            self.problem(self.line(node), f"{where} must be a mapping of 'name: value' fields")
            return None
        fields = {key.value: (key, value) for key, value in node.value}
        for name, (key, _) in fields.items():
            if name not in allowed:
                self.problem(self.line(key), f"unknown field '{name}' in {where} (allowed: {', '.join(allowed)})")
        for name in required:
            if name not in fields:
                self.problem(
                    line if line is not None else self.line(node), f"{where} is missing required field '{name}'"
                )
        return fields

    def scalar(self, node: yaml.Node, name: str) -> str | None:
        if not isinstance(node, yaml.ScalarNode):
            self.problem(
                self.line(node),
                f"field '{name}' must be text, not a {'list' if isinstance(node, yaml.SequenceNode) else 'mapping'}",
            )
            return None
        return node.value

    def text(self, node: yaml.Node, name: str, one_line: bool = True) -> str | None:
        """A non-empty text. One-line texts may hold no line break or control character."""
        value = self.scalar(node, name)
        if value is None:
            return None
        value = value.strip()
        if not value:
            self.problem(self.line(node), f"field '{name}' must be a non-empty text")
            return None
        if one_line and NEWLINE_RE.search(value):
            self.problem(self.line(node), f"field '{name}' must be one line: remove the line break")
            return None
        if CONTROL_RE.search(value):
            self.problem(self.line(node), f"field '{name}' contains a control character")
            return None
        return value

    def code(self, node: yaml.Node, name: str) -> str | None:
        """A block of code (multi-line text kept as written, trailing newline dropped)."""
        value = self.scalar(node, name)
        if value is None:
            return None
        if not value.strip():
            self.problem(self.line(node), f"field '{name}' must not be empty")
            return None
        if "\t" in value:
            self.problem(self.line(node), f"field '{name}' is indented with tabs: use spaces")
            return None
        if CONTROL_RE.search(value.replace("\t", "")):
            self.problem(self.line(node), f"field '{name}' contains a control character")
            return None
        return value.rstrip("\n")

    def choice(self, node: yaml.Node, name: str, options, what: str = "value") -> str | None:
        value = self.text(node, name)
        if value is not None and value not in options:
            self.problem(self.line(node), f"unknown {what} '{value}' (expected one of: {', '.join(options)})")
            return None
        return value

    def matching(self, node: yaml.Node, name: str, pattern: re.Pattern, expected: str) -> str | None:
        value = self.text(node, name)
        if value is not None and not pattern.match(value):
            self.problem(self.line(node), f"bad {name} '{value}': expected {expected}")
            return None
        return value

    def url(self, node: yaml.Node, name: str) -> str | None:
        value = self.text(node, name)
        if value is None:
            return None
        reason = url_problem(value)
        if reason:
            self.problem(self.line(node), f"bad {name} URL '{value}': {reason}")
            return None
        return value

    def text_list(
        self, node: yaml.Node, name: str, pattern: re.Pattern | None = None, expected: str = ""
    ) -> list[str] | None:
        if not isinstance(node, yaml.SequenceNode):
            self.problem(self.line(node), f'field \'{name}\' must be a list, e.g. ["a", "b"]')
            return None
        values = []
        for item in node.value:
            value = self.matching(item, name, pattern, expected) if pattern else self.text(item, name)
            if value is None:
                return None
            if value in values:
                self.problem(self.line(item), f"'{value}' is listed twice in '{name}'")
                return None
            values.append(value)
        return values

    def sequence(self, node: yaml.Node, name: str) -> list[yaml.Node] | None:
        if not isinstance(node, yaml.SequenceNode):
            self.problem(self.line(node), f"field '{name}' must be a list of items")
            return None
        return list(node.value)


def url_problem(value: str) -> str | None:
    """Why `value` is not a safe https:// link with a real host, or None if it is."""
    if not value.startswith("https://"):
        return "expected an https:// link"
    host = re.split(r"[/?#:]", value[len("https://") :], maxsplit=1)[0]
    if not HOST_RE.match(host):
        return "it has no valid host name"
    if not URL_SAFE_RE.match(value):
        return "it contains characters a link may not hold (quotes, brackets, spaces, backslashes …)"
    return None
