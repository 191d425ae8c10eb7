"""The records every snippet module shares: a code block (`Snippet`) and a message (`Diagnostic`)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "CHECKED_LANGS",
    "Diagnostic",
    "LANG_ALIASES",
    "LANGS",
    "Page",
    "Snippet",
    "shown_path",
]

# Fence tags as the page writers use them -> the language the checker works with.
LANG_ALIASES: dict[str, str] = {
    "python": "python",
    "py": "python",
    "python3": "python",
    "pycon": "pycon",
    "cpp": "cpp",
    "c++": "cpp",
    "cxx": "cpp",
    "bash": "shell",
    "sh": "shell",
    "shell": "shell",
    "console": "shell",
    "text": "output",
    "output": "output",
    # Shown, never checked: a Markdown example (fences inside it are not snippets).
    "markdown": "markdown",
    "md": "markdown",
}
LANGS = ("python", "pycon", "cpp", "shell", "output", "markdown")
CHECKED_LANGS = ("python", "pycon", "cpp", "shell")

# What check does with each language (shown by `list`).
ROLES = {
    "python": "run",
    "pycon": "run+compare",
    "cpp": "compile",
    "shell": "parse",
    "output": "shown",
    "markdown": "shown",
}


def shown_path(path: Path) -> str:
    """A path as messages show it: relative to the working directory when possible."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass(frozen=True)
class Diagnostic:
    """One compiler-style message: `path:line:col: severity: message`."""

    path: str
    line: int
    col: int
    message: str
    severity: str = "error"  # error | warning | note
    snippet: str | None = None  # id of the snippet it belongs to, if any
    check: str = ""  # which check produced it (extract, parse, parity, names, run, cpp)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message}"

    @property
    def sort_key(self) -> tuple:
        return (self.path, self.line, self.col, self.message)


@dataclass
class Snippet:
    """One fenced code block of one page."""

    id: str  # stable: "<src_uri without .md>#<ordinal>", e.g. "releases/1.6.en#03"
    page: str  # path as shown in messages, e.g. "docs/releases/1.6.en.md"
    src_uri: str  # relative to docs_dir, e.g. "releases/1.6.en.md"
    page_lang: str  # zh | en
    release: str | None  # "1.6" for release pages
    index: int  # 1-based ordinal among the page's fenced blocks
    fence_line: int  # line of the opening fence (1-based, in the file)
    end_line: int  # line of the closing fence
    prefix: str  # what precedes the fence on its line: indentation and '>' markers
    fence: str  # the opening fence itself, e.g. "```" or "~~~~"
    info: str  # the raw info string after the fence
    tag: str | None  # the language tag as written (None when there is none)
    lang: str | None  # normalised language (see LANG_ALIASES), None when unknown or missing
    code: str  # the block's content, dedented by the fence's prefix, LF line endings
    directives: dict = field(default_factory=dict)
    directive_line: int | None = None

    @property
    def line(self) -> int:
        """Line of the first code line in the file."""
        return self.fence_line + 1

    @property
    def indent(self) -> int:
        """Columns to add to a column inside `code` to get the column in the file."""
        return len(self.prefix)

    @property
    def role(self) -> str:
        return ROLES.get(self.lang or "", "error")

    @property
    def hash(self) -> str:
        """Content hash: language, code and directives (not the position on the page)."""
        payload = json.dumps([self.lang, self.code, self.directives], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]

    def file_line(self, code_line: int) -> int:
        """Line in the file of the 1-based line `code_line` of `code`."""
        return self.fence_line + code_line

    def diag(self, code_line: int, code_col: int, message: str, *, check: str, severity: str = "error") -> Diagnostic:
        """A diagnostic at a 1-based line and column of `code`."""
        return Diagnostic(
            self.page, self.file_line(code_line), code_col + self.indent, message, severity, self.id, check
        )

    def manifest(self) -> dict:
        return {
            "id": self.id,
            "page": self.src_uri,
            "page_lang": self.page_lang,
            "release": self.release,
            "fence_line": self.fence_line,
            "line": self.line,
            "lang": self.lang,
            "tag": self.tag,
            "directives": self.directives,
            "hash": self.hash,
        }


@dataclass
class Page:
    """A Markdown page and what extraction found in it."""

    path: Path
    shown: str
    src_uri: str
    lang: str
    release: str | None
    snippets: list[Snippet] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
