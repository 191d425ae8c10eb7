"""The start and the end of every release page: the H1, the quick facts (quick_facts.py), the summary and the
official source; and the footer with the previous and next releases. The install section and the feature list
follow the start (install.py, features.py). HTML, every value escaped (scripts/views/html.py)."""

from __future__ import annotations

from scripts.catalog.model import Catalog, ReleasePage
from scripts.views.html import date_html, esc, evidence_mark, relative_link, release_src, short_url
from scripts.views.words import UI


def release_header(page: ReleasePage, quick: str = "") -> str:
    """The H1, the quick facts (`quick`, HTML from scripts/views/release/quick_facts.py), the summary and the official
    source every release page starts with (HTML: every value is escaped). Provenance caveats are folded behind their
    ◆ in the quick facts: content first, the caveat one click away (still in the page for search and print). A
    provisional page's summary is left out: its own text says the same (the post is not here yet), once."""
    t = UI[page.lang]
    source_mark = evidence_mark(page.source_evidence, page.lang)
    lines = [
        # No id on the H1: Material drops the first table-of-contents level when the H1 has one.
        f'<h1 class="release-title">{esc(page.title)}</h1>',
        "",
        '<div class="release-meta">',
    ]
    if quick:
        lines.append(quick)
    else:
        date_mark = evidence_mark(page.date_evidence, page.lang)
        lines.append(
            f'<p class="release-facts"><span class="release-date">{esc(t["date"])}{t["colon"]}{date_html(page)}{date_mark}</span></p>'
        )
        for note in (page.date_note, page.source_note):
            if note:
                lines.append(f'<details class="quick-caveat"><summary>◆</summary><p>{esc(note)}</p></details>')
    if not page.provisional:
        lines.append(f'<p class="release-summary">{esc(page.summary)}</p>')
    lines += [
        f'<p class="release-facts"><span class="release-source">{esc(t["source"])}{t["colon"]}'
        f'<a href="{esc(page.source)}">{esc(short_url(page.source))}</a>{source_mark}</span></p>',
        "</div>",
        "",
    ]
    return "\n".join(lines)


def release_footer(catalog: Catalog, page: ReleasePage, compare_href: str | None = None, release_href=None) -> str:
    """Previous/next release links and the official source, at the end of every release page.

    `release_href(version)` gives the URL of another release's page in this language (the hook computes
    it from MkDocs' file table); without it, Markdown links between files are written instead."""
    t = UI[page.lang]
    src = release_src(page.version)
    previous = catalog.previous(page.version)
    following = catalog.next(page.version)

    def link(version: str) -> str:
        text = esc(t["release"].format(version=version))
        if release_href:
            return f'<a href="{esc(release_href(version))}">{text}</a>'
        return f"[{text}]({relative_link(src, release_src(version))})"

    # Excluded from the search index: the neighbours' summaries would otherwise count as text of this
    # page's last section.
    lines = ["", "---", "", '<nav class="release-around" data-search-exclude markdown>', ""]
    if previous:
        prev_page = previous.pages[page.lang]
        lines.append(
            f"- {esc(t['previous'])}{t['colon']}{link(previous.version)} ({prev_page.date_iso}) — {esc(prev_page.summary)}"
        )
        if compare_href:
            # Raw HTML: MkDocs would try to resolve a Markdown link with a query as a file. The pair is a
            # query, not a #fragment: it is view state.
            changes_link = esc(f"{compare_href}?from={previous.version}&to={page.version}")
            text = esc(t["changes_since"].format(previous=previous.version, version=page.version))
            lines.append(f'- <a class="release-changes" href="{changes_link}">{text}</a>')
    else:
        lines.append(f"- {esc(t['none_previous'])}")
    if following:
        next_page = following.pages[page.lang]
        lines.append(
            f"- {esc(t['next'])}{t['colon']}{link(following.version)} ({next_page.date_iso}) — {esc(next_page.summary)}"
        )
    else:
        lines.append(f"- {esc(t['none_next'])}")
    # A provisional page's source is its PyPI page, not a post: the link says so.
    read = t["read_pypi"] if page.provisional else t["read_source"]
    lines += [
        "",
        "</nav>",
        "",
        f'<p class="release-source-link" data-search-exclude><a href="{esc(page.source)}">{esc(read)} ↗</a></p>',
        "",
    ]
    return "\n".join(lines)
