"""Check 2, bilingual parity: the zh and en page of a release hold the same code.

Translators translate comments, not code: the two pages must have the same ordered list of blocks,
with the same language, the same directives, and the same code once comments are stripped (python and
pycon: tokenize comments; cpp: // and /* */; shell: # comments). Output blocks must match as written.

Also here, because it is a translation slip: full-width punctuation (，（）：“”；。 ...) anywhere in code
is reported before anything runs, with the ASCII character to use instead.
"""

from __future__ import annotations

import io
import tokenize

from scripts.catalog.model import DEFAULT_LANGUAGE
from scripts.snippets.model import Diagnostic, Page, Snippet

__all__ = [
    "FULL_WIDTH",
    "comparable_lines",
    "full_width_problems",
    "pair_pages",
    "parity_problems",
    "strip_comments",
]

# Full-width punctuation -> what code needs instead.
FULL_WIDTH = {
    "，": ",",
    "（": "(",
    "）": ")",
    "：": ":",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "；": ";",
    "。": ".",
    "、": ",",
    "！": "!",
    "？": "?",
    "【": "[",
    "】": "]",
    "《": "<",
    "》": ">",
    "「": '"',
    "」": '"',
    "＝": "=",
    "［": "[",
    "］": "]",
    "｛": "{",
    "｝": "}",
    "＃": "#",
    "　": " ",
}
CODE_LANGS = ("python", "pycon", "cpp", "shell")


def full_width_problems(snippet: Snippet) -> list[Diagnostic]:
    """One error per line holding full-width punctuation."""
    if snippet.lang not in CODE_LANGS:
        return []
    problems = []
    for number, line in enumerate(snippet.code.split("\n"), start=1):
        found = [(col, ch) for col, ch in enumerate(line, start=1) if ch in FULL_WIDTH]
        if not found:
            continue
        col, ch = found[0]
        listed = ", ".join(f"'{c}'" for c in dict.fromkeys(c for _, c in found))
        problems.append(
            snippet.diag(
                number,
                col,
                f"full-width punctuation {listed} in code (U+{ord(ch):04X}): use ASCII '{FULL_WIDTH[ch]}' "
                "(code and its comments stay half-width on both pages)",
                check="parity",
            )
        )
    return problems


# --- comment stripping ----------------------------------------------------------------------------


def _python_comment_spans(source: str) -> list[tuple[int, int]] | None:
    """(1-based line, column) where each comment starts, or None when tokenize fails."""
    spans = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                spans.append(tok.start)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return spans


def _strip_hash(line: str) -> str:
    """The line without its first '#' that no quote follows, and the whitespace before it (linear time)."""
    last_quote = max(line.rfind("'"), line.rfind('"'))
    cut = line.find("#", last_quote + 1)
    return line if cut < 0 else line[:cut].rstrip()


def _strip_python(lines: list[str]) -> list[str]:
    spans = _python_comment_spans("\n".join(lines) + "\n")
    out = list(lines)
    if spans is None:  # does not tokenize: fall back to '#' not inside a simple string
        return [_strip_hash(line) for line in lines]
    for line, col in spans:
        out[line - 1] = out[line - 1][:col]
    return out


def _strip_pycon(lines: list[str]) -> list[str]:
    """Strip comments from the `>>>`/`...` source lines; output lines stay as they are."""
    import doctest

    out = list(lines)
    try:
        examples = doctest.DocTestParser().get_examples("\n".join(lines))
    except ValueError:
        return out
    for example in examples:
        count = example.source.count("\n") or 1
        first = example.lineno
        block = lines[first : first + count]
        cut = example.indent + 4
        stripped = _strip_python([line[cut:] for line in block])
        for k, text in enumerate(stripped):
            out[first + k] = block[k][:cut] + text
    return out


def _strip_cpp(code: str) -> str:
    out = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j < 0 else j
            continue
        if code.startswith("/*", i):
            j = code.find("*/", i + 2)
            end = n if j < 0 else j + 2
            out.append("\n" * code.count("\n", i, end))
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and code[j] != c and code[j] != "\n":
                j += 2 if code[j] == "\\" else 1
            out.append(code[i : j + 1])
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _strip_shell_line(line: str) -> str:
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                continue
        elif c in "\"'":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t;|&("):
            return line[:i]
    return line


def strip_comments(lang: str | None, code: str) -> list[str]:
    """The block's lines with comments removed (one entry per line of `code`)."""
    lines = code.split("\n")
    if lang == "python":
        return _strip_python(lines)
    if lang == "pycon":
        return _strip_pycon(lines)
    if lang == "cpp":
        return _strip_cpp(code).split("\n")
    if lang == "shell":
        return [_strip_shell_line(line) for line in lines]
    return lines


def comparable_lines(snippet: Snippet) -> list[tuple[int, str]]:
    """(1-based code line, text) of the non-empty lines once comments are gone, trailing space trimmed."""
    if snippet.lang == "markdown":
        return []
    return [
        (k, text.rstrip()) for k, text in enumerate(strip_comments(snippet.lang, snippet.code), start=1) if text.strip()
    ]


# --- pairing and comparing -------------------------------------------------------------------------


def pair_pages(pages: list[Page]) -> list[tuple[Page, Page]]:
    """(default-language page, translation) pairs: `x.md` with `x.en.md`."""
    by_key: dict[tuple[str, str], Page] = {}
    for page in pages:
        stem = page.src_uri[: -len(".md")]
        if page.lang != DEFAULT_LANGUAGE and stem.endswith(f".{page.lang}"):
            stem = stem[: -len(page.lang) - 1]
        by_key[(stem, page.lang)] = page
    pairs = []
    for (stem, lang), page in sorted(by_key.items()):
        if lang == DEFAULT_LANGUAGE:
            continue
        base = by_key.get((stem, DEFAULT_LANGUAGE))
        if base is not None:
            pairs.append((base, page))
    return pairs


def _describe(s: Snippet) -> str:
    return f"{s.page}:{s.fence_line} ({s.lang or s.tag or 'untagged'})"


def parity_problems(base: Page, other: Page) -> list[Diagnostic]:
    """What differs between a page and its translation; reported on the translation."""
    problems: list[Diagnostic] = []
    # The before/after code of changes is written once, in the Chinese page's front matter: nothing to pair.
    a = [s for s in base.snippets if not s.directives.get("change")]
    b = [s for s in other.snippets if not s.directives.get("change")]
    for i in range(max(len(a), len(b))):
        if i >= len(a) or i >= len(b) or a[i].lang != b[i].lang:
            if i >= len(b):
                where = Diagnostic(other.shown, b[-1].end_line if b else 1, 1, "", snippet=b[-1].id if b else None)
                message = f"{other.shown} has {len(b)} code block(s) but {base.shown} has {len(a)}: block {i + 1}, {_describe(a[i])}, is missing here"
            elif i >= len(a):
                where = Diagnostic(other.shown, b[i].fence_line, 1, "", snippet=b[i].id)
                message = f"{other.shown} has {len(b)} code block(s) but {base.shown} has {len(a)}: block {i + 1} is not in {base.shown}"
            else:
                where = Diagnostic(other.shown, b[i].fence_line, 1, "", snippet=b[i].id)
                message = f"code block {i + 1} is {b[i].lang or 'untagged'} here but {_describe(a[i])} in {base.shown}: the two pages must list the same blocks in the same order"
            problems.append(Diagnostic(where.path, where.line, where.col, message, "error", where.snippet, "parity"))
            break  # everything after a missing block is shifted: one message is enough
        sa, sb = a[i], b[i]
        if sa.directives != sb.directives:
            problems.append(
                Diagnostic(
                    other.shown,
                    sb.directive_line or sb.fence_line,
                    1,
                    f"snippet directives {sb.directives} differ from {base.shown}:{sa.directive_line or sa.fence_line} ({sa.directives})",
                    "error",
                    sb.id,
                    "parity",
                )
            )
        la, lb = comparable_lines(sa), comparable_lines(sb)
        for k in range(max(len(la), len(lb))):
            left = la[k] if k < len(la) else None
            right = lb[k] if k < len(lb) else None
            if left is not None and right is not None and left[1] == right[1]:
                continue
            line_b = sb.file_line(right[0]) if right else sb.end_line
            line_a = sa.file_line(left[0]) if left else sa.end_line
            shown_a = left[1].strip() if left else "(nothing)"
            shown_b = right[1].strip() if right else "(nothing)"
            problems.append(
                Diagnostic(
                    other.shown,
                    line_b,
                    1,
                    f"code differs from {base.shown}:{line_a} (only comments may be translated): "
                    f"here `{shown_b[:80]}`, there `{shown_a[:80]}`",
                    "error",
                    sb.id,
                    "parity",
                )
            )
            break
    return problems
