"""One language per page: every built page, both languages, read as a reader sees it (the visible text of the
article, the navigation, the header and the footer).

- An English page shows no run of Chinese (Han characters or CJK punctuation).
- A Chinese page shows no run of English prose: four or more words in a row, three of them plain lower-case words
  (so names such as "Google AI Platform Notebooks", "Linux aarch64 (ARM) wheel" or "Attention is All You Need"
  pass, "needs the torchao package" does not).

Read whether shown now or on a click (the matrix's sources rows, folded notes). Not read: code (`code`, `pre`, `kbd`, `samp`), SVG, anything marked with its own `lang` (a quote in the other
language), the language switch (`hreflang` links). What is left and still allowed is listed below with its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Comment, NavigableString, Tag
from parsed_pages import parsed_page

REGIONS = "article, nav, header.md-header, footer"
SKIPPED = {"script", "style", "code", "pre", "kbd", "samp", "svg", "template", "noscript"}
# Elements whose text does not run into the next one's (a table cell, a list item, a heading …).
BLOCKS = {
    "p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "summary", "caption", "blockquote", "div",
    "details", "ul", "ol", "table", "tr", "dl", "figure", "figcaption", "nav", "section", "label", "option", "select",
    "button", "header", "footer", "article", "aside", "form", "main", "br", "hr", "tbody", "thead",
}  # fmt: skip
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")
TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_./+#'’-]*")
# What may stand between two words of one run: spaces and light punctuation; a sentence's full stop too.
GAP = re.compile(r"^(?:[\s,;:()\"'!?]|\.\s)*$")
PROSE_WORD = re.compile(r"^[a-z]+(?:['’][a-z]+)?$")

# Pages that hold both languages by design.
BILINGUAL_PAGES = {"404.html": "one 404 page for both languages (overrides/hooks/not_found_page.py)"}
# Chinese pages: elements whose English is allowed, by CSS class, with the reason.
ZH_ALLOWED_CLASSES = {
    "snippet-badge": (
        "the snippet checker's badge under a code block quotes PyTorch's own warning or error verbatim, and a "
        "skipped block's reason from its directive, which the zh and en pages share (scripts/snippets/, its owners')"
    ),
}
# Chinese pages: English runs allowed where they stand, with the reason.
ZH_ALLOWED_RUNS = {
    ("releases/0.1/index.html", "PyTorch a year in"): "the title of the official post, quoted",
    ("releases/1.0/index.html", "The road to 1.0 production ready PyTorch"): "the title of the official post, quoted",
    ("releases/1.0/index.html", "So that users won't accidentally install this when using python 3.11"): (
        "the reason PyPI gives for yanking torchvision 0.2.2, quoted verbatim"
    ),
    ("releases/1.1/index.html", "PyTorch adds new dev tools as it hits production scale"): "the official post's title",
    ("releases/1.6/index.html", "PyTorch feature classification changes"): "the title of an official blog post",
    ("releases/2.10/index.html", "Could not guard on data-dependent expression"): "PyTorch's error message, quoted",
    ("releases/2.12/index.html", "Graph is not supported on device type cuda"): "PyTorch's error message, quoted",
    ("machine/index.html", "no kernel image is available for execution on the device"): (
        "CUDA's error message as the reader sees it, the heading (and contents entry) of its explanation"
    ),
    ("machine/index.html", "CUDA driver version is insufficient for CUDA runtime version"): (
        "CUDA's error message as the reader sees it, the heading (and contents entry) of its explanation"
    ),
}


def _segments(region: Tag, allowed_classes: dict[str, str]) -> list[str]:
    """The region's visible text, one string per block element, without the parts that are not read."""
    parts: list[str] = []

    def walk(node: Tag) -> None:
        for child in node.children:
            if isinstance(child, Comment):
                continue
            if isinstance(child, NavigableString):
                parts.append(str(child))
                continue
            if not isinstance(child, Tag):
                continue
            classes = set(child.get("class") or [])
            if (
                child.name in SKIPPED
                or child.has_attr("lang")
                or child.has_attr("hreflang")
                or classes & set(allowed_classes)
            ):
                parts.append("\x00")
                continue
            if child.name in BLOCKS:
                parts.append("\x00")
                walk(child)
                parts.append("\x00")
            else:
                walk(child)

    walk(region)
    return [s for s in "".join(parts).split("\x00") if s.strip()]


def english_runs(text: str) -> list[str]:
    """Runs of English prose in a text: ≥ 4 words in a row, ≥ 3 of them plain lower-case words."""
    runs: list[list[str]] = []
    run: list[str] = []
    end = None
    for match in TOKEN.finditer(text):
        if run and not GAP.match(text[end : match.start()]):
            runs.append(run)
            run = []
        run.append(match.group(0).rstrip(".'’-"))
        end = match.end()
    if run:
        runs.append(run)
    return [" ".join(r) for r in runs if len(r) >= 4 and sum(1 for w in r if PROSE_WORD.match(w)) >= 3]


def stray_text(html: str | BeautifulSoup, lang: str, page: str) -> list[str]:
    """What a page (its HTML, or the page parsed) shows in the other language, as "what (context)" strings."""
    soup = BeautifulSoup(html, "html.parser") if isinstance(html, str) else html
    found = []
    for region in soup.select(REGIONS):
        for segment in _segments(region, ZH_ALLOWED_CLASSES if lang == "zh" else {}):
            context = " ".join(segment.split())[:120]
            if lang == "en":
                found += [f"{run!r} in {context!r}" for run in CJK.findall(segment)]
            else:
                found += [
                    f"{run!r} in {context!r}" for run in english_runs(segment) if (page, run) not in ZH_ALLOWED_RUNS
                ]
    return found


def _pages(site: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        if rel.startswith("assets/") or rel in BILINGUAL_PAGES:
            continue
        out.append((rel, "en" if rel.startswith("en/") else "zh"))
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_speaks_its_own_language(built_site, catalog, lang):
    pages = [(rel, page_lang) for rel, page_lang in _pages(built_site) if page_lang == lang]
    prefix = "en/" if lang == "en" else ""
    views = {f"{prefix}{view}/index.html" for view in ("compatibility", "support", "compare", "lifecycle")}
    releases = {f"{prefix}releases/{release.version}/index.html" for release in catalog.releases}
    assert views | releases <= {rel for rel, _ in pages}, "every page of the language is read"
    problems = {}
    for rel, _ in pages:
        found = stray_text(parsed_page(built_site / rel), lang, rel)
        if found:
            problems[rel] = found[:3] + ([f"… {len(found) - 3} more"] if len(found) > 3 else [])
    assert problems == {}, problems


def test_every_allowed_run_is_still_on_its_page(built_site):
    """An allowance that no longer matches anything is stale: it would hide the next stray run."""
    for (page, run), reason in ZH_ALLOWED_RUNS.items():
        soup = parsed_page(built_site / page)
        runs = [r for region in soup.select(REGIONS) for s in _segments(region, {}) for r in english_runs(s)]
        assert run in runs, f"{page}: {run!r} ({reason}) is no longer there: remove it from ZH_ALLOWED_RUNS"


@pytest.mark.parametrize(
    "lang, html, expected",
    [
        ("en", "<article><p>Sources: 发布文章 say so.</p></article>", ["发布文章"]),
        ("en", "<article><p>Python：3.10</p></article>", ["："]),
        ("en", '<article><p>Switch to <span lang="zh">中文</span>; <code>x = "中"</code></p></article>', []),
        ("en", '<header class="md-header"><a hreflang="zh" href="/">中文</a></header>', []),
        ("zh", "<article><p>未运行：needs the torchao package</p></article>", ["needs the torchao package"]),
        ("zh", "<article><p>PyPI 上没有 Linux aarch64 (ARM) wheel。</p></article>", []),
        ("zh", "<article><table><tr><td>Torch Function Mode</td><td>Mega Cache</td></tr></table></article>", []),
        ("zh", '<article><p>见 <q lang="en">the new defaults are safer for most users</q>。</p></article>', []),
        ("zh", '<article><p class="snippet-badge">⚠ 已弃用：it is deprecated and will be removed</p></article>', []),
        (
            "zh",
            "<article><p>它 is deprecated and will be removed。</p></article>",
            ["is deprecated and will be removed"],
        ),
    ],
)
def test_the_scan_finds_stray_runs_and_leaves_code_names_and_marked_quotes(lang, html, expected):
    found = stray_text(html, lang, "releases/9.9/index.html")
    assert [f.split(" in ")[0].strip("'") for f in found] == expected
