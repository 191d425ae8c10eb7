"""Strict reading of a page's front matter, with the line of every value, for messages as `path:line: message`.

Used by the release catalog (scripts/catalog/) and by the site-wide page checks (scripts/checks/pages.py).
YAML is only *composed* here (nodes with positions), never constructed into Python objects, so:

- a value keeps its text as written (`version: 2.10` stays "2.10", dates stay strings until checked);
- an explicit tag (`title: !custom "x"`) or an alias/anchor is refused instead of silently changing what a
  field means (MkDocs would otherwise render the whole front matter as page text). Anchors and aliases are
  found in the token stream, before anything is composed: nine short lines of aliases to aliases expand
  into billions of nodes, and walking them would hang the build;
- a value may not hold a code point XML 1.0 cannot carry (C0 controls but tab and newline, lone surrogates,
  Unicode noncharacters such as U+FFFE): every text reaches the RSS feed, which would no longer be XML;
- duplicate keys are found at any depth.

Nothing here knows what a release is: `Reader` offers typed getters (one-line text, URL, list of strings …)
that record a problem and return None instead of raising, so one run reports every problem at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

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
    r"^https://[A-Za-z0-9.-]+(:\d+)?(/[A-Za-z0-9\-._~%!$&*+,;=:@/]*)?(\?[A-Za-z0-9\-._~%!$&*+,;=:@/?]*)?(#[A-Za-z0-9\-._~%!$&*+,;=:@/?]*)?$"
)
# Code points an XML 1.0 document cannot hold (the feeds are XML): C0 controls other than tab, LF and CR;
# surrogates (only lone ones survive decoding); and the noncharacters U+FDD0-U+FDEF and U+xFFFE/U+xFFFF of
# every plane, which YAML's "\uFFFE" escapes let through though its reader refuses them written raw.
NOT_XML_CHARACTERS_RE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
    + "]"
)
HOST_RE = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$")


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
    """Return (front matter, body, line of the body's first line) or None when not closed."""
    lines = text.split("\n")
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1 :]), i + 2
    return None


@dataclass
class FrontMatter:
    root: yaml.MappingNode | None  # None when the page has no front matter
    body: str
    body_line: int  # line number of the body's first line
    offset: int = 2  # line number of the first front matter line


def _walk(node: yaml.Node):
    yield node
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _walk(key)
            yield from _walk(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _walk(item)


# libyaml's composer when PyYAML has it (about ten times faster than the pure-Python one; every build parses
# every page), else the pure-Python one. Either way only nodes are composed, nothing is constructed.
_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _anchor_and_alias_problems(front: str, shown: str, offset: int) -> list[Problem]:
    """Anchors (&name) and aliases (*name), found by scanning tokens: nothing is composed or expanded, so
    an alias bomb costs as little as its text. Malformed YAML is left to the composer, which names its line."""
    if "&" not in front and "*" not in front:
        return []  # neither can be written without its sign: most pages need no second pass
    problems = []
    try:
        for token in yaml.scan(front, Loader=_COMPOSER):
            if isinstance(token, yaml.AliasToken):
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
    """Every scalar (field names too) holding a code point XML cannot carry, at the line that holds it."""
    problems = []
    for node in _walk(root):
        if not isinstance(node, yaml.ScalarNode):
            continue
        bad = NOT_XML_CHARACTERS_RE.search(node.value)
        if bad:
            line = offset + node.start_mark.line
            if node.style in ("|", ">"):  # a block scalar's text starts on the line after its indicator
                line += 1 + node.value.count("\n", 0, bad.start())
            problems.append(
                Problem(
                    shown,
                    line,
                    f"U+{ord(bad.group()):04X} is not allowed in front matter (a control character, noncharacter or lone surrogate that XML, and so the feed, cannot carry): remove it",
                )
            )
    return problems


def parse_front_matter(text: str, shown: str, required: bool) -> tuple[FrontMatter | None, list[Problem]]:
    """Split and compose the front matter. `required`: a page without one is a problem (release pages)."""
    if not text.startswith("---\n"):
        if required:
            return None, [Problem(shown, 1, "missing front matter: a release page must start with a '---' line")]
        return FrontMatter(None, text, 1), []
    split = split_front_matter(text)
    if split is None:
        return None, [Problem(shown, 1, "front matter is not closed: add a '---' line after it")]
    front, body, body_line = split
    offset = 2
    root, problems = compose_document(front, shown, offset)
    if problems:
        return None, problems
    if root is None:
        if required:
            return None, [Problem(shown, 1, "front matter is empty")]
        return FrontMatter(None, body, body_line, offset), []
    return FrontMatter(root, body, body_line, offset), []


def compose_document(
    front: str, shown: str, offset: int, what: str = "front matter"
) -> tuple[yaml.MappingNode | None, list[Problem]]:
    """Compose one YAML document strictly (front matter, or a data file with `offset` 1): its root mapping (None
    when empty), or the problems with their lines: anchors and aliases, malformed YAML, a root that is not a
    mapping, code points XML cannot carry, unknown tags, duplicate or non-text field names."""
    refused = _anchor_and_alias_problems(front, shown, offset)
    if refused:
        return None, refused
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
