"""Markdown generated from the release catalog: the timeline, and each release page's header and footer.

Pure functions (catalog in, Markdown out) so they are tested without a build; the hooks in
overrides/hooks/ only decide where the output goes. Links are written as links between Markdown files
(`releases/1.6.md`): MkDocs turns them into directory URLs for the hosted site and `.html` URLs for the
offline copy, and static-i18n points them at the page of the language being built.
"""

from __future__ import annotations

import html
import re
import posixpath

from scripts.releases import AREAS, MATURITY_LABELS, RELEASES_DIR, Catalog, ReleasePage, scan_fences

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
        "previous": "上一版本",
        "next": "下一版本",
        "none_previous": "这是本站收录的最早版本。",
        "none_next": "这是本站收录的最新版本。",
        "read_source": "阅读官方发布文章",
        "coverage": "本站收录 PyTorch {first}（{first_date}）至 {last}（{last_date}）共 {count} 个小版本。"
        "更新的版本在有官方来源之后才会收录。",
        "release": "PyTorch {version}",
        "changes_since": "{previous} → {version} 之间变化的特性",
    },
    "en": {
        "colon": ": ",
        "date": "Released",
        "source": "Official source",
        "feature": "Feature",
        "area": "Area",
        "maturity": "Maturity",
        "previous": "Previous release",
        "next": "Next release",
        "none_previous": "This is the oldest release covered here.",
        "none_next": "This is the newest release covered here.",
        "read_source": "Read the official release post",
        "coverage": "Covers {count} minor releases, from PyTorch {first} ({first_date}) to {last} ({last_date}). "
        "Newer releases are added once an official source exists.",
        "release": "PyTorch {version}",
        "changes_since": "What changed from {previous} to {version}",
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


def release_footer(catalog: Catalog, page: ReleasePage, compare_href: str | None = None) -> str:
    """Previous/next release links and the official source, at the end of every release page."""
    t = UI[page.lang]
    src = f"{RELEASES_DIR}/{page.version}.md"
    previous = catalog.previous(page.version)
    following = catalog.next(page.version)
    # Excluded from the search index: the neighbours' summaries would otherwise count as text of this
    # page's last section.
    lines = ["", "---", "", '<nav class="release-around" data-search-exclude markdown>', ""]
    if previous:
        prev_page = previous.pages[page.lang]
        lines.append(
            f'- {t["previous"]}{t["colon"]}[{t["release"].format(version=previous.version)}]({_link(src, _release_src(previous.version))})'
            f" ({prev_page.date.isoformat()}) — {_escape_md(prev_page.summary)}"
        )
        if compare_href:
            # Raw HTML: MkDocs would try to resolve a Markdown link with a query as a file. The pair is a
            # query, not a #fragment: it is view state, and a fragment would name an element that does not exist.
            changes_link = html.escape(f"{compare_href}?from={previous.version}&to={page.version}")
            text = html.escape(t["changes_since"].format(previous=previous.version, version=page.version))
            lines.append(f'- <a class="release-changes" href="{changes_link}">{text}</a>')
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
    lines += ["", "</nav>", "", f'<p class="release-source-link" data-search-exclude><a href="{html.escape(page.source)}">{t["read_source"]} ↗</a></p>', ""]
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


# --- views across releases (lifecycle, topics, compare) ------------------------------------------------
# These emit HTML, not Markdown links, so they take `href(page, anchor)`: the hook computes each URL from
# MkDocs' own file table, which is right for directory URLs and for the offline copy's `.html` URLs.

UI["zh"].update(
    {
        "lifecycle_feature": "特性",
        "lifecycle_filter": "按领域筛选",
        "all_areas": "全部领域",
        "lifecycle_count": "共 {features} 项特性，跨 {releases} 个版本。",
        "topic_intro": "{area}领域在各版本中的特性，按时间顺序排列（共 {releases} 个版本、{features} 项）。",
        "topic_empty": "暂无版本在这个领域标注特性。",
        "compare_from": "起始版本",
        "compare_to": "目标版本",
        "compare_button": "比较",
        "compare_change": "变化",
        "compare_new": "新增",
        "compare_changed": "成熟度变化",
        "compare_noscript": "比较功能需要启用 JavaScript；也可以查看特性生命周期表。",
    }
)
UI["en"].update(
    {
        "lifecycle_feature": "Feature",
        "lifecycle_filter": "Filter by area",
        "all_areas": "All areas",
        "lifecycle_count": "{features} features across {releases} releases.",
        "topic_intro": "Features in the {area} area, release by release, oldest first ({releases} releases, {features} features).",
        "topic_empty": "No release lists a feature in this area yet.",
        "compare_from": "From",
        "compare_to": "To",
        "compare_button": "Compare",
        "compare_change": "Change",
        "compare_new": "new",
        "compare_changed": "maturity changed",
        "compare_noscript": "Comparing needs JavaScript; the feature lifecycle table shows the same data.",
    }
)


def feature_history(catalog: Catalog, lang: str) -> list[dict]:
    """One entry per feature id: its area, its name (from the newest release) and, per release, its label.

    Ordered by area (as in AREAS), then by the release that first mentions the feature.
    """
    oldest_first = list(reversed(catalog.releases))
    history: dict[str, dict] = {}
    for index, release in enumerate(oldest_first):
        for feature in release.pages[lang].features:
            entry = history.setdefault(feature.id, {"id": feature.id, "area": feature.area, "first": index, "cells": {}})
            entry["name"] = feature.name  # the newest release's wording wins
            entry["area"] = feature.area
            entry["cells"][release.version] = feature.maturity
    area_order = {area: i for i, area in enumerate(AREAS)}
    return sorted(history.values(), key=lambda e: (area_order[e["area"]], e["first"], e["id"]))


def lifecycle(catalog: Catalog, lang: str, href) -> str:
    """The feature × release matrix; each cell is the label of that feature in that release."""
    t = UI[lang]
    oldest_first = list(reversed(catalog.releases))
    rows = feature_history(catalog, lang)
    areas = [a for a in AREAS if any(r["area"] == a for r in rows)]
    out = [
        f'<p class="lifecycle-count">{html.escape(t["lifecycle_count"].format(features=len(rows), releases=len(oldest_first)))}</p>',
        '<div class="lifecycle-filter">',
        f'<label for="lifecycle-area">{t["lifecycle_filter"]}</label> ',
        '<select id="lifecycle-area" data-filter-target="lifecycle-table">',
        f'<option value="">{t["all_areas"]}</option>',
    ]
    out += [f'<option value="{area}">{html.escape(AREAS[area][lang])}</option>' for area in areas]
    out += ["</select>", "</div>", '<div class="lifecycle-scroll">', '<table class="lifecycle" id="lifecycle-table">', "<thead><tr>"]
    out.append(f'<th scope="col">{t["lifecycle_feature"]}</th><th scope="col">{t["area"]}</th>')
    for release in oldest_first:
        out.append(f'<th scope="col"><a href="{href(release.pages[lang])}">{release.version}</a></th>')
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append(f'<tr data-area="{row["area"]}" data-feature="{row["id"]}">')
        out.append(f'<th scope="row">{html.escape(row["name"])}</th><td>{html.escape(AREAS[row["area"]][lang])}</td>')
        for release in oldest_first:
            label = row["cells"].get(release.version)
            if label is None:
                out.append('<td class="lifecycle-empty"></td>')
            else:
                link = href(release.pages[lang], row["id"])
                out.append(f'<td data-version="{release.version}"><a href="{link}">{maturity_badge(label, lang)}</a></td>')
        out.append("</tr>")
    out += ["</tbody></table>", "</div>", ""]
    return "\n".join(out)


def topic(catalog: Catalog, area: str, lang: str, href) -> str:
    """Every release that lists a feature in `area`, oldest first, with those features."""
    t = UI[lang]
    releases = [r for r in reversed(catalog.releases) if any(f.area == area for f in r.pages[lang].features)]
    if not releases:
        return f'<p class="topic-empty">{t["topic_empty"]}</p>\n'
    count = sum(1 for r in releases for f in r.pages[lang].features if f.area == area)
    out = [
        f'<p class="topic-intro">{html.escape(t["topic_intro"].format(area=AREAS[area][lang], releases=len(releases), features=count))}</p>',
        '<div class="timeline topic-timeline">',
    ]
    for release in releases:
        page = release.pages[lang]
        out += [
            f'<div class="timeline-entry" data-version="{release.version}" data-date="{page.date.isoformat()}">',
            f'<h2 id="v{release.version.replace(".", "-")}"><a href="{href(page)}">{html.escape(t["release"].format(version=release.version))}</a></h2>',
            f'<p class="timeline-date"><time datetime="{page.date.isoformat()}">{page.date.isoformat()}</time></p>',
            '<ul class="topic-features">',
        ]
        for feature in page.features:
            if feature.area == area:
                out.append(
                    f'<li data-feature="{feature.id}"><a href="{href(page, feature.id)}">{html.escape(feature.name)}</a> '
                    f"{maturity_badge(feature.maturity, lang)}</li>"
                )
        out += ["</ul>", "</div>"]
    out += ["</div>", ""]
    return "\n".join(out)


def compare_data(catalog: Catalog, lang: str, href) -> list[dict]:
    """What the compare page's script needs: releases oldest first, each with its features and URLs."""
    return [
        {
            "version": release.version,
            "date": release.pages[lang].date.isoformat(),
            "url": href(release.pages[lang]),
            "features": [
                {"id": f.id, "name": f.name, "area": AREAS[f.area][lang], "maturity": f.maturity, "label": MATURITY_LABELS[f.maturity][lang]}
                for f in release.pages[lang].features
            ],
        }
        for release in reversed(catalog.releases)
    ]


def compare(catalog: Catalog, lang: str, href) -> str:
    """Two version pickers and an (initially server-rendered) result for the newest pair of releases."""
    import json

    t = UI[lang]
    data = compare_data(catalog, lang, href)
    versions = [r["version"] for r in data]
    default_from = versions[-2] if len(versions) > 1 else versions[0]
    default_to = versions[-1]

    def options(selected: str) -> str:
        return "".join(f'<option value="{v}"{" selected" if v == selected else ""}>PyTorch {v}</option>' for v in versions)

    payload = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    strings = json.dumps({k: t[k] for k in ("compare_new", "compare_changed", "feature", "area", "compare_change")}, ensure_ascii=False)
    return "\n".join(
        [
            '<form class="compare-form" id="compare-form">',
            f'<label for="compare-from">{t["compare_from"]}</label> <select id="compare-from" name="from">{options(default_from)}</select> ',
            f'<label for="compare-to">{t["compare_to"]}</label> <select id="compare-to" name="to">{options(default_to)}</select> ',
            f'<button type="submit" class="md-button md-button--primary">{t["compare_button"]}</button>',
            "</form>",
            f"<noscript><p>{t['compare_noscript']}</p></noscript>",
            '<div id="compare-result" aria-live="polite"></div>',
            f'<script type="application/json" id="compare-data">{payload}</script>',
            f'<script type="application/json" id="compare-strings">{strings}</script>',
            "",
        ]
    )


def release_changes(catalog: Catalog, from_version: str, to_version: str, lang: str) -> list[dict]:
    """Features that appeared or changed label after `from_version` up to and including `to_version`.

    The Python twin of the compare page's script, used by tests to check what the page computes.
    """
    oldest_first = list(reversed(catalog.releases))
    versions = [r.version for r in oldest_first]
    lo, hi = versions.index(from_version), versions.index(to_version)
    if lo > hi:
        lo, hi = hi, lo
    state: dict[str, str] = {}
    for release in oldest_first[: lo + 1]:
        for f in release.pages[lang].features:
            state[f.id] = f.maturity
    changes = []
    for release in oldest_first[lo + 1 : hi + 1]:
        for f in release.pages[lang].features:
            before = state.get(f.id)
            if before != f.maturity:
                changes.append({"id": f.id, "version": release.version, "from": before, "to": f.maturity})
            state[f.id] = f.maturity
    return changes


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
    for line, code in zip(lines, in_code):
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
