"""Find every fenced code block of a Markdown page the way MkDocs Material renders it.

Material pages are parsed by pymdownx.superfences, so this scanner follows its rules rather than
CommonMark's:

- a fence is 3+ backticks or tildes after any mix of spaces, tabs and '>' (lists, admonitions,
  content tabs and blockquotes all just indent it); tabs count to the next multiple of 4;
- the info string is `lang opt="v"` or `{ .lang .class key="v" }` (the first class is the language);
- the fence closes on a line with the *same* fence string (same character, same length) at the same
  indentation; a longer or shorter run is content, which is what makes nested fences work: the
  ``` inside a ````markdown block is not a snippet;
- content is dedented by the fence's indentation; a non-blank line indented less than the fence makes
  superfences drop the block (it renders as text), which is reported here as an error.

Front matter is skipped (its lines still count). CRLF is normalised. The language tag is normalised
(see `model.LANG_ALIASES`); a missing or unknown tag is an error, never a silent skip.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from pathlib import Path

import yaml

from scripts.catalog.frontmatter import split_front_matter
from scripts.catalog.model import DEFAULT_LANGUAGE, RELEASES_DIR, VERSION_RE, language_of
from scripts.snippets.directives import DIRECTIVE_RE, DIRECTIVE_START_RE, check_directives_for_lang, parse_directive
from scripts.snippets.model import LANG_ALIASES, Diagnostic, Page, Snippet, shown_path

__all__ = [
    "EXTENSIONS",
    "extract_page",
    "extract_site",
    "find_pages",
    "read_text",
    "release_of",
    "scan",
    "snippet_id",
    "write_extracted",
]

TAB_LEN = 4
PREFIX_CHARS = (">", " ", "\t")
FENCE_START_RE = re.compile(r"(?P<fence>~{3,}|`{3,})(?P<info>.*)$")
LANG_RE = re.compile(r"[ \t]*\.?(?P<lang>[\w#.+-]+)(?=[\t ]|$)")
ATTRS_RE = re.compile(r"^\{(?P<attrs>.*)\}$")
INCLUDE_RE = re.compile(r"^\s*;?-{1,}8<-{1,}")
LIST_FENCE_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:`{3,}|~{3,})")
# `<!-- snipet: skip -->`: a misspelt directive would be an ordinary comment, and the block would run.
NEAR_DIRECTIVE_RE = re.compile(r"^<!--\s*(?P<word>[A-Za-z_-]+)\s*:")
EXTENSIONS = {"python": "py", "pycon": "pycon", "cpp": "cpp", "shell": "sh", "output": "txt", "markdown": "md"}
KNOWN_TAGS_HINT = "python, pycon, cpp, shell, text"


def read_text(path: Path) -> str:
    """A page's text with CRLF (and lone CR) normalised to LF; a BOM is dropped."""
    return path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


def release_of(src_uri: str) -> str | None:
    """ "releases/1.6.en.md" -> "1.6"; None for pages that are not release pages."""
    parts = src_uri.split("/")
    if len(parts) != 2 or parts[0] != RELEASES_DIR or not parts[1].endswith(".md"):
        return None
    stem = parts[1][: -len(".md")]
    lang = language_of(Path(parts[1]))
    if stem.endswith(f".{lang}"):
        stem = stem[: -len(lang) - 1]
    return stem if VERSION_RE.match(stem) else None


def snippet_id(src_uri: str, index: int) -> str:
    stem = src_uri[: -len(".md")] if src_uri.endswith(".md") else src_uri
    return f"{stem}#{index:02d}"


def _split_prefix(line: str) -> tuple[str, int]:
    """The leading run of spaces/tabs/'>' (tabs expanded), and its length in characters."""
    removed, rest = _strip_prefix(line, math.inf)
    return removed, len(line) - len(rest)


def _strip_prefix(line: str, width: float) -> tuple[str, str]:
    """Remove up to `width` columns of prefix from a content line: (prefix removed, rest)."""
    ws = []
    virtual = 0
    n = 0
    for c in line:
        if virtual >= width or c not in PREFIX_CHARS:
            break
        n += 1
        if c == "\t":
            size = TAB_LEN - (virtual % TAB_LEN)
            ws.append(" " * size)
            virtual += size
        else:
            ws.append(c)
            virtual += 1
    rest = line[n:]
    removed = "".join(ws)
    if len(removed) > width:  # a tab straddled the boundary: give the extra columns back (width is finite here)
        extra = len(removed) - int(width)
        rest = " " * extra + rest
        removed = removed[: int(width)]
    return removed, rest


def _parse_info(info: str) -> str | None:
    """The language tag of an info string: `python title="x"`, `.python`, `{ .python .x }`."""
    info = info.strip()
    if not info:
        return None
    match = LANG_RE.match(info)
    tag = None
    rest = info
    if match and not info.startswith("{"):
        tag = match.group("lang")
        rest = info[match.end() :].strip()
    attrs = ATTRS_RE.match(rest)
    if tag is None and attrs:
        for token in attrs.group("attrs").split():
            if token.startswith(".") and len(token) > 1:
                tag = token[1:]
                break
    return tag


def _normalise(tag: str | None, code: str) -> str | None:
    if tag is None:
        return None
    lang = LANG_ALIASES.get(tag.lower())
    if lang == "python":
        first = next((line for line in code.split("\n") if line.strip()), "")
        if first.lstrip().startswith(">>>"):
            lang = "pycon"
    return lang


def scan(
    text: str,
    *,
    page: str,
    src_uri: str,
    page_lang: str,
    release: str | None = None,
    first_line: int = 1,
) -> tuple[list[Snippet], list[Diagnostic]]:
    """Every fenced block of `text` (LF line endings), whose first line is line `first_line` of the page."""
    snippets: list[Snippet] = []
    problems: list[Diagnostic] = []
    lines = text.split("\n")

    def problem(line: int, col: int, message: str) -> None:
        problems.append(Diagnostic(page, line, col, message, check="extract"))

    pending: dict | None = None  # directive waiting for its fence: {"line", "values", "errors", "col"}
    fence: dict | None = None  # the open fence
    for offset, raw in enumerate(lines):
        number = first_line + offset
        if fence is None:
            ws, n = _split_prefix(raw)
            rest = raw[n:]
            near = NEAR_DIRECTIVE_RE.match(rest)
            if (
                near
                and near.group("word") != "snippet"
                and difflib.SequenceMatcher(None, near.group("word").lower(), "snippet").ratio() >= 0.7
            ):
                problem(
                    number,
                    n + 1,
                    f"'<!-- {near.group('word')}: … -->' looks like a misspelt snippet directive: write '<!-- snippet: … -->'",
                )
                continue
            if DIRECTIVE_START_RE.match(rest):
                if pending is not None and pending["line"] != number - 1:
                    problem(
                        pending["line"],
                        pending["col"],
                        "snippet directive is not on the line right before a code fence",
                    )
                    pending = None
                match = DIRECTIVE_RE.match(rest)
                if not match:
                    problem(number, n + 1, "snippet directive must be one line: <!-- snippet: key=value ... -->")
                    continue
                values, errors = parse_directive(match.group("body"))
                if pending is None:
                    pending = {"line": number, "col": n + 1, "values": {}, "errors": []}
                for key, value in values.items():
                    if key in pending["values"]:
                        errors.append(f"snippet directive '{key}' given twice")
                    pending["values"][key] = value
                pending["errors"].extend(errors)
                pending["line"] = number
                continue
            start = FENCE_START_RE.match(rest)
            if start:
                fence = {
                    "line": number,
                    "prefix": ws,
                    "fence": start.group("fence"),
                    "info": start.group("info").strip(),
                    "code": [],
                    "quote": ws.count(">"),
                    "directive": pending if pending is not None and pending["line"] == number - 1 else None,
                }
                if pending is not None and fence["directive"] is None:
                    problem(
                        pending["line"],
                        pending["col"],
                        "snippet directive is not on the line right before a code fence",
                    )
                pending = None
                continue
            if LIST_FENCE_RE.match(raw):
                problem(
                    number,
                    1,
                    "a fence on a list item's first line does not render as a code block: put it on its own line, indented under the item",
                )
            if pending is not None and raw.strip():
                problem(
                    pending["line"],
                    pending["col"],
                    "snippet directive is not followed by a code fence on the next line",
                )
                pending = None
            continue

        # Inside a fence.
        width = len(fence["prefix"])
        ws, content = _strip_prefix(raw, width)
        if fence["quote"] and ws.count(">") != fence["quote"] and (ws + content).strip(" >"):
            problem(number, 1, f"blockquote level changes inside the code fence opened at line {fence['line']}")
            fence = None
            continue
        if not (ws + content).strip() or (fence["quote"] and not (ws + content).strip(" >\t")):
            fence["code"].append("")
            continue
        if len(ws) != width:
            problem(
                number,
                1,
                f"line is indented less than the code fence opened at line {fence['line']}: "
                "the block will not render as code (indent every line of it like its fence)",
            )
            fence = None
            continue
        if re.match(re.escape(fence["fence"]) + r"[ \t]*$", content) and not content.startswith((" ", "\t")):
            snippets.append(_make_snippet(fence, number, page, src_uri, page_lang, release, len(snippets) + 1, problem))
            fence = None
            continue
        fence["code"].append(content)

    if pending is not None:
        problem(pending["line"], pending["col"], "snippet directive is not followed by a code fence")
    if fence is not None:
        problem(
            fence["line"],
            len(fence["prefix"]) + 1,
            f"code fence '{fence['fence']}' opened here is never closed (close it with the same '{fence['fence']}' at the same indentation)",
        )
    return snippets, problems


def _make_snippet(fence: dict, end_line: int, page, src_uri, page_lang, release, index: int, problem) -> Snippet:
    code = "\n".join(fence["code"])
    tag = _parse_info(fence["info"])
    lang = _normalise(tag, code)
    col = len(fence["prefix"]) + 1
    directive = fence["directive"] or {"values": {}, "errors": [], "line": None, "col": 1}
    if tag is None:
        problem(fence["line"], col, f"code fence has no language tag: add one of {KNOWN_TAGS_HINT}")
    elif lang is None:
        problem(fence["line"], col, f"unknown language tag '{tag}' (use one of {KNOWN_TAGS_HINT})")
    for message in directive["errors"]:
        problem(directive["line"], directive["col"], message)
    for message in check_directives_for_lang(directive["values"], lang):
        problem(directive["line"], directive["col"], message)
    if lang in ("python", "pycon", "cpp", "shell"):
        for k, line in enumerate(fence["code"], start=1):
            if INCLUDE_RE.match(line):
                problem(
                    fence["line"] + k,
                    col,
                    "'--8<--' includes are not enabled on this site (no pymdownx.snippets): put the code in the block",
                )
    return Snippet(
        id=snippet_id(src_uri, index),
        page=page,
        src_uri=src_uri,
        page_lang=page_lang,
        release=release,
        index=index,
        fence_line=fence["line"],
        end_line=end_line,
        prefix=fence["prefix"],
        fence=fence["fence"],
        info=fence["info"],
        tag=tag,
        lang=lang,
        code=code,
        directives=dict(directive["values"]),
        directive_line=directive["line"],
    )


CHANGE_CODE_KEYS = ("before", "after")


def change_snippet_id(src_uri: str, change_id: str, role: str) -> str:
    stem = src_uri[: -len(".md")] if src_uri.endswith(".md") else src_uri
    return f"{stem}#change-{change_id}-{role}"


def change_snippets(text: str, *, page: str, src_uri: str, page_lang: str, release: str | None) -> list[Snippet]:
    """The `before`/`after` code of each change in a release page's front matter (the Chinese page: facts
    are written once), as python snippets at their lines. `directives["change"]` says which side it is:
    `after` must run on today's torch; `before` is run to record whether old code still works, warns or fails.
    Front matter that does not parse yields nothing here: the catalog reports it."""
    from scripts.catalog.frontmatter import parse_front_matter

    if release is None or page_lang != DEFAULT_LANGUAGE or not text.startswith("---\n"):
        return []
    front, _ = parse_front_matter(text, page, required=True)
    if front is None or front.root is None:
        return []
    changes = next((value for key, value in front.root.value if key.value == "changes"), None)
    if not isinstance(changes, yaml.SequenceNode):
        return []
    raw_lines = text.split("\n")
    snippets = []
    for item in changes.value:
        if not isinstance(item, yaml.MappingNode):
            continue
        fields = {key.value: value for key, value in item.value if isinstance(key, yaml.ScalarNode)}
        change_id = fields.get("id")
        if not isinstance(change_id, yaml.ScalarNode):
            continue
        for role in CHANGE_CODE_KEYS:
            node = fields.get(role)
            if not isinstance(node, yaml.ScalarNode) or not node.value.strip():
                continue
            key_line = front.offset + node.start_mark.line  # the `before: |` line
            code = node.value.rstrip("\n")
            first = raw_lines[key_line] if key_line < len(raw_lines) else ""  # 0-based index = next line
            indent = len(first) - len(first.lstrip(" "))
            snippets.append(
                Snippet(
                    id=change_snippet_id(src_uri, change_id.value.strip(), role),
                    page=page,
                    src_uri=src_uri,
                    page_lang=page_lang,
                    release=release,
                    index=0,
                    fence_line=key_line,
                    end_line=key_line + len(code.split("\n")),
                    prefix=" " * indent,
                    fence="",
                    info="python",
                    tag="python",
                    lang="python",
                    code=code,
                    directives={"change": role},
                    directive_line=None,
                )
            )
    return snippets


def extract_page(path: Path, docs_dir: Path) -> Page:
    """Read one page and extract its blocks: fenced code in the body, and the before/after code of the
    changes in a release page's front matter."""
    src_uri = path.relative_to(docs_dir).as_posix()
    shown = shown_path(path)
    lang = language_of(path)
    release = release_of(src_uri)
    page = Page(path=path, shown=shown, src_uri=src_uri, lang=lang, release=release)
    try:
        text = read_text(path)
    except UnicodeDecodeError as exc:
        page.problems.append(Diagnostic(shown, 1, 1, f"not valid UTF-8: {exc.reason}", check="extract"))
        return page
    body, first_line = text, 1
    if text.startswith("---\n"):
        split = split_front_matter(text)
        if split is not None:
            _, body, first_line = split
    page.snippets, page.problems = scan(
        body, page=shown, src_uri=src_uri, page_lang=lang, release=release, first_line=first_line
    )
    page.snippets += change_snippets(text, page=shown, src_uri=src_uri, page_lang=lang, release=release)
    return page


def find_pages(docs_dir: Path) -> list[Path]:
    """Every Markdown page under docs_dir, sorted; hidden files and folders are left out (MkDocs does too)."""
    pages = []
    for path in sorted(docs_dir.rglob("*.md")):
        rel = path.relative_to(docs_dir).parts
        if any(part.startswith(".") for part in rel):
            continue
        pages.append(path)
    return pages


def extract_site(docs_dir: Path | str) -> list[Page]:
    docs_dir = Path(docs_dir)
    return [extract_page(path, docs_dir) for path in find_pages(docs_dir)]


def _file_name(snippet: Snippet) -> str:
    stem = snippet.id.replace("/", "__").replace("#", "-")
    return f"{stem}.{EXTENSIONS.get(snippet.lang or '', 'txt')}"


def write_extracted(pages: list[Page], out_dir: Path | str) -> Path:
    """Write each snippet as a file named by its id, and manifest.json; returns the manifest's path.

    Files listed by a previous manifest in out_dir are removed first, so the folder never holds stale code.
    """
    out_dir = Path(out_dir)
    manifest_path = out_dir / "manifest.json"
    if manifest_path.exists():
        try:
            old = json.loads(manifest_path.read_text(encoding="utf-8"))
            for entry in old.get("snippets", []):
                stale = out_dir / entry.get("file", "")
                if entry.get("file") and stale.is_file():
                    stale.unlink()
        except (ValueError, OSError):
            pass
    out_dir.mkdir(parents=True, exist_ok=True)
    entries = []
    for page in pages:
        for snippet in page.snippets:
            name = _file_name(snippet)
            code = snippet.code if snippet.code.endswith("\n") or not snippet.code else snippet.code + "\n"
            (out_dir / name).write_text(code, encoding="utf-8")
            entry = snippet.manifest()
            entry["file"] = name
            entries.append(entry)
    entries.sort(key=lambda e: e["id"])
    manifest_path.write_text(
        json.dumps({"snippets": entries}, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return manifest_path
