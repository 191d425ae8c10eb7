"""The start and the end of every release page: the H1, the quick facts (quick_facts.py), the fact box with the
summary, the official source and the feature table (each feature's label here and its status today); and the footer
with the previous and next releases. HTML, every value escaped (scripts/views/html.py)."""

from __future__ import annotations

from scripts.catalog.model import AREAS, Catalog, ReleasePage
from scripts.views.html import (
    date_html,
    esc,
    evidence_mark,
    maturity_badge,
    relative_link,
    release_src,
    short_url,
)
from scripts.views.words import UI


def status_html(status, lang: str, lifecycle_href: str | None, feature_id: str) -> str:
    """The "today" cell: newest label with its release, or deprecated/removed in a release."""
    t = UI[lang]
    if status is None:
        return ""
    if status.kind == "label":
        inner = f'{maturity_badge(status.label, lang)} <span class="status-version">{esc(status.version)}</span>'
    else:
        css = "status-removed" if status.kind == "removed" else "status-deprecated"
        inner = f'<span class="status {css}" data-status="{status.kind}">{esc(t["status_" + status.kind].format(version=status.version))}</span>'
    if lifecycle_href:
        return f'<a class="status-link" href="{esc(lifecycle_href)}#feature-{esc(feature_id)}">{inner}</a>'
    return inner


def feature_table(page: ReleasePage, statuses: dict | None = None, lifecycle_href: str | None = None) -> str:
    """Feature | label in this release | status today | area, as HTML (names are text). On phones the rows
    stack as cards (CSS), so the label is always on screen."""
    t = UI[page.lang]
    out = [
        # data-search-exclude: the table repeats the sections below it; in the search index it made every
        # release's top result a wall of feature names (scripts/views/search_index.py).
        '<div class="feature-table-wrap" data-search-exclude>',
        '<table class="feature-table">',
        f'<caption class="visually-hidden">{esc(t["features_caption"].format(version=page.version))}</caption>',
        "<thead><tr>",
        f'<th scope="col">{esc(t["feature"])}</th>',
        f'<th scope="col">{esc(t["maturity"])}</th>',
    ]
    if statuses is not None:
        out.append(f'<th scope="col" title="{esc(t["today_title"])}">{esc(t["today"])}</th>')
    out += [f'<th scope="col">{esc(t["area"])}</th>', "</tr></thead>", "<tbody>"]
    for feature in page.features:
        out.append(f'<tr data-feature="{esc(feature.id)}">')
        out.append(
            f'<th scope="row" data-label="{esc(t["feature"])}"><a href="#{esc(feature.id)}">{esc(feature.name)}</a></th>'
        )
        out.append(f'<td data-label="{esc(t["maturity"])}">{maturity_badge(feature.maturity, page.lang)}</td>')
        if statuses is not None:
            out.append(
                f'<td data-label="{esc(t["today"])}">{status_html(statuses.get(feature.id), page.lang, lifecycle_href, feature.id)}</td>'
            )
        out.append(f'<td data-label="{esc(t["area"])}">{esc(AREAS[feature.area][page.lang])}</td>')
        out.append("</tr>")
    out += ["</tbody>", "</table>", "</div>"]
    return "\n".join(out)


def release_header(
    page: ReleasePage, statuses: dict | None = None, lifecycle_href: str | None = None, quick: str = ""
) -> str:
    """The H1, the quick facts (`quick`, HTML from scripts/views/release/quick_facts.py) and the fact box every release page
    starts with (HTML: every value is escaped). Provenance caveats are folded behind their ◆ in the quick facts:
    content first, the caveat one click away (still in the page for search and print)."""
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
    lines += [
        f'<p class="release-summary">{esc(page.summary)}</p>',
        f'<p class="release-facts"><span class="release-source">{esc(t["source"])}{t["colon"]}'
        f'<a href="{esc(page.source)}">{esc(short_url(page.source))}</a>{source_mark}</span></p>',
    ]
    if page.features:
        lines.append(feature_table(page, statuses, lifecycle_href))
    lines += ["</div>", ""]
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
