"""HTML helpers of every view. **Text fields are text**: every value that comes from front matter (titles,
summaries, feature names, notes, change texts, URLs) reaches the page as escaped HTML, never as Markdown: Markdown
would turn `](javascript:…)` into a link, `{ onfocus=… }` into attributes (attr_list), `<!--` into a comment that
swallows the page and `Tensor<T>` into nothing. The only markup a text may carry is a `code span` in a change's
text, rendered as <code> with its content escaped (`text_html`). Also: evidence marks, maturity badges, dates, the
provisional mark, links between release files, and the CJK line joiner of Chinese Markdown.
"""

from __future__ import annotations

import html
import posixpath
import re

from scripts.catalog.fences import scan_fences
from scripts.catalog.model import EVIDENCE, MATURITY_LABELS, RELEASES_DIR, ReleasePage
from scripts.views.words import UI


def esc(text: str) -> str:
    """Text for HTML element content or a double-quoted attribute."""
    return html.escape(text, quote=True)


def text_code_block(text: str) -> str:
    """A block of plain text (an install command) as the HTML the site's Markdown makes of a ```text fence
    (pymdownx.highlight, Pygments' text lexer: no token markup), written directly so that the views can put it in
    after Markdown: no fence to find and no highlighting to run for the hundreds of commands. Material gives it its
    copy button as it does any code block. tests/test_views.py holds it to the fence's rendering."""
    # As Markdown reads the fence (tabs to 4 columns) and Pygments writes it (leading and trailing newlines
    # dropped, one at the end; only &, < and > escaped).
    code = html.escape(text.expandtabs(4).strip("\n"), quote=False)
    return f'<div class="highlight"><pre><span></span><code>{code}\n</code></pre></div>'


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def text_html(text: str) -> str:
    """Escaped text where `code spans` become <code>; nothing else is markup."""
    parts = _CODE_SPAN.split(text)
    return "".join(f"<code>{esc(part)}</code>" if i % 2 else esc(part) for i, part in enumerate(parts))


def maturity_badge(label: str, lang: str, count: int | None = None) -> str:
    text = MATURITY_LABELS[label][lang]
    if count is not None:
        text = f"{count} {text}"
    css = "maturity-" + label.lower()
    return f'<span class="maturity {css}" data-maturity="{esc(label)}">{esc(text)}</span>'


def evidence_mark(evidence: str, lang: str) -> str:
    """Nothing for an official fact; ◆ with its meaning (title and hidden text) otherwise."""
    if evidence == "official":
        return ""
    meaning = EVIDENCE[evidence][lang]
    return f'<span class="evidence evidence-{evidence}" title="{esc(meaning)}">{EVIDENCE[evidence]["mark"]}<span class="visually-hidden"> {esc(meaning)}</span></span>'


def date_html(page: ReleasePage) -> str:
    t = UI[page.lang]
    suffix = esc(t["month_only"]) if page.date_precision == "month" else ""
    return f'<time datetime="{page.date_iso}">{page.date_iso}</time>{suffix}'


def relative_link(from_src: str, to_src: str) -> str:
    return posixpath.relpath(to_src, posixpath.dirname(from_src) or ".")


def release_src(version: str) -> str:
    # Always the default-language file: static-i18n resolves it to the page of the language being built.
    return f"{RELEASES_DIR}/{version}.md"


def short_url(url: str) -> str:
    return url.split("://", 1)[-1].rstrip("/")


PROVISIONAL = {
    "zh": ("临时条目", "官方发布文章尚未收录：日期是 PyPI 首次上传的日期，事实只来自 PyPI"),
    "en": (
        "provisional",
        "Official post not available here yet: the date is PyPI's first upload day and the facts come from PyPI only",
    ),
}


def provisional_html(page: ReleasePage) -> str:
    """The mark of a release known from PyPI only (`provisional: true`); nothing for any other."""
    if not page.provisional:
        return ""
    label, meaning = PROVISIONAL[page.lang]
    colon = UI[page.lang]["colon"]
    return f' <span class="provisional-mark" title="{esc(meaning)}">{esc(label)}<span class="visually-hidden">{esc(colon + meaning)}</span></span>'


# --- Chinese prose ----------------------------------------------------------------------------------------

_CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef\u201c\u201d\u2018\u2019"
_ENDS_CJK = re.compile(f"[{_CJK}]$")
_STARTS_CJK = re.compile(f"^\\s*[{_CJK}]")
_BLOCK_START = re.compile(r"^\s*([-*+>|#]|\d+[.)]\s|<|!!!|\?\?\?|===|\{)")


def join_cjk_soft_breaks(markdown: str) -> str:
    """Join paragraph lines wrapped between two CJK characters.

    A newline inside a paragraph renders as a space, which Chinese does not use between characters:
    "和\\n“实验性" would show as "和 “实验性". Code fences and block starts (lists, headings, HTML) are left alone.
    """
    lines = markdown.split("\n")
    in_code = scan_fences(lines)[0]
    out: list[str] = []
    previous_in_code = True
    for line, code in zip(lines, in_code, strict=True):
        if (
            not code
            and not previous_in_code
            and _ENDS_CJK.search(out[-1])
            and _STARTS_CJK.match(line)
            and not _BLOCK_START.match(line)
        ):
            out[-1] += line.lstrip()
        else:
            out.append(line)
        previous_in_code = code
    return "\n".join(out)
