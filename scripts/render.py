"""Markdown generated from the release catalog: the timeline, and each release page's header and footer.

Pure functions (catalog in, Markdown out) so they are tested without a build; the hooks in
overrides/hooks/ only decide where the output goes. Links are written as links between Markdown files
(`releases/1.6.md`): MkDocs turns them into directory URLs for the hosted site and `.html` URLs for the
offline copy, and static-i18n points them at the page of the language being built.
"""

from __future__ import annotations

import html
import posixpath

from scripts.releases import AREAS, MATURITY_LABELS, RELEASES_DIR, Catalog, ReleasePage

# The labels a timeline entry always counts, even at zero, so entries compare at a glance.
COUNTED_LABELS = ("Stable", "Beta", "Prototype")

UI: dict[str, dict[str, str]] = {
    "zh": {
        "colon": "：",
        "date": "发布日期",
        "source": "官方来源",
        "feature": "特性",
        "area": "领域",
        "maturity": "成熟度",
        "features_in_release": "本版本特性一览",
        "previous": "上一版本",
        "next": "下一版本",
        "none_previous": "这是本站收录的最早版本。",
        "none_next": "这是本站收录的最新版本。",
        "around": "前后版本",
        "read_source": "阅读官方发布文章",
        "coverage": "本站收录 PyTorch {first}（{first_date}）至 {last}（{last_date}）共 {count} 个小版本。"
        "更新的版本在有官方来源之后才会收录。",
        "features_total": "{n} 项特性",
        "release": "PyTorch {version}",
    },
    "en": {
        "colon": ": ",
        "date": "Released",
        "source": "Official source",
        "feature": "Feature",
        "area": "Area",
        "maturity": "Maturity",
        "features_in_release": "Features in this release",
        "previous": "Previous release",
        "next": "Next release",
        "none_previous": "This is the oldest release covered here.",
        "none_next": "This is the newest release covered here.",
        "around": "Before and after",
        "read_source": "Read the official release post",
        "coverage": "Covers {count} minor releases, from PyTorch {first} ({first_date}) to {last} ({last_date}). "
        "Newer releases are added once an official source exists.",
        "features_total": "{n} features",
        "release": "PyTorch {version}",
    },
}


def maturity_badge(label: str, lang: str, count: int | None = None) -> str:
    text = MATURITY_LABELS[label][lang]
    if count is not None:
        text = f"{count} {text}"
    css = "maturity-" + label.lower()
    return f'<span class="maturity {css}" data-maturity="{label}">{html.escape(text)}</span>'


def _link(from_src: str, to_src: str) -> str:
    return posixpath.relpath(to_src, posixpath.dirname(from_src) or ".")


def _release_src(version: str) -> str:
    # Always the default-language file: static-i18n resolves it to the page of the language being built.
    return f"{RELEASES_DIR}/{version}.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def release_header(page: ReleasePage) -> str:
    """The H1 and the fact box every release page starts with."""
    t = UI[page.lang]
    lines = [
        f"# {page.title}",
        "",
        '<div class="release-meta" markdown>',
        "",
        f'<p class="release-facts"><span class="release-date">{t["date"]}{t["colon"]}'
        f'<time datetime="{page.date.isoformat()}">{page.date.isoformat()}</time></span> · '
        f'<span class="release-source">{t["source"]}{t["colon"]}'
        f'<a href="{html.escape(page.source)}">{html.escape(_short_url(page.source))}</a></span></p>',
        "",
        f'<p class="release-summary">{html.escape(page.summary)}</p>',
        "",
    ]
    if page.source_note:
        lines += [f'<p class="release-source-note">{html.escape(page.source_note)}</p>', ""]
    lines += [
        f'| {t["feature"]} | {t["area"]} | {t["maturity"]} |',
        "|---|---|---|",
    ]
    for feature in page.features:
        name = _cell(feature.name)
        lines.append(f"| [{name}](#{feature.id}) | {AREAS[feature.area][page.lang]} | {maturity_badge(feature.maturity, page.lang)} |")
    lines += ["", "</div>", ""]
    return "\n".join(lines)


def _short_url(url: str) -> str:
    return url.split("://", 1)[-1].rstrip("/")


def release_footer(catalog: Catalog, page: ReleasePage) -> str:
    """Previous/next release links and the official source, at the end of every release page."""
    t = UI[page.lang]
    src = f"{RELEASES_DIR}/{page.version}.md"
    previous = catalog.previous(page.version)
    following = catalog.next(page.version)
    lines = ["", "---", "", f'<nav class="release-around" markdown>', ""]
    if previous:
        prev_page = previous.pages[page.lang]
        lines.append(
            f'- {t["previous"]}{t["colon"]}[{t["release"].format(version=previous.version)}]({_link(src, _release_src(previous.version))})'
            f" ({prev_page.date.isoformat()}) — {_escape_md(prev_page.summary)}"
        )
    else:
        lines.append(f"- {t['none_previous']}")
    if following:
        next_page = following.pages[page.lang]
        lines.append(
            f'- {t["next"]}{t["colon"]}[{t["release"].format(version=following.version)}]({_link(src, _release_src(following.version))})'
            f" ({next_page.date.isoformat()}) — {_escape_md(next_page.summary)}"
        )
    else:
        lines.append(f"- {t['none_next']}")
    lines += ["", "</nav>", "", f'<p class="release-source-link"><a href="{html.escape(page.source)}">{t["read_source"]} ↗</a></p>', ""]
    return "\n".join(lines)


def _escape_md(text: str) -> str:
    return html.escape(text).replace("[", "\\[").replace("]", "\\]").replace("*", "\\*").replace("_", "\\_")


def maturity_counts_html(page: ReleasePage) -> str:
    counts = page.maturity_counts()
    shown = list(COUNTED_LABELS) + [label for label in counts if label not in COUNTED_LABELS]
    return " ".join(maturity_badge(label, page.lang, counts.get(label, 0)) for label in shown)


def timeline(catalog: Catalog, lang: str, from_src: str = "index.md") -> str:
    """The home page timeline: newest release first, each with date, summary and maturity counts."""
    t = UI[lang]
    pages = catalog.pages(lang)
    if not pages:
        return ""
    newest, oldest = pages[0], pages[-1]
    lines = [
        f'<p class="timeline-coverage">'
        + html.escape(
            t["coverage"].format(
                first=oldest.version,
                first_date=oldest.date.isoformat(),
                last=newest.version,
                last_date=newest.date.isoformat(),
                count=len(pages),
            )
        )
        + "</p>",
        "",
        '<div class="timeline" markdown>',
        "",
    ]
    for page in pages:
        anchor = "v" + page.version.replace(".", "-")
        lines += [
            f'<div class="timeline-entry" data-version="{page.version}" data-date="{page.date.isoformat()}" markdown>',
            "",
            f"## [{t['release'].format(version=page.version)}]({_link(from_src, _release_src(page.version))}) {{ #{anchor} }}",
            "",
            f'<p class="timeline-date"><time datetime="{page.date.isoformat()}">{page.date.isoformat()}</time></p>',
            "",
            f'<p class="timeline-summary">{html.escape(page.summary)}</p>',
            "",
            f'<p class="timeline-counts">{maturity_counts_html(page)}</p>',
            "",
            "</div>",
            "",
        ]
    lines += ["</div>", ""]
    return "\n".join(lines)
