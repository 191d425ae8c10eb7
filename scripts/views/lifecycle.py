"""The lifecycle view (every feature's label journey on one release axis, docs/lifecycle.md) and the topic pages
(one area's features release by release, docs/topics/*.md): HTML from the catalog, every text escaped.

Views emit HTML, not Markdown links, so they take `href(page, anchor)`: the hook computes each URL from MkDocs' own
file table, which is right for directory URLs and for the offline copy's `.html` URLs.
"""

from __future__ import annotations

from scripts.catalog.history import feature_history
from scripts.catalog.model import AREAS, Catalog, version_key
from scripts.views.html import esc, maturity_badge
from scripts.views.words import UI as BASE_UI

UI: dict[str, dict[str, str]] = {
    "zh": {
        **BASE_UI["zh"],
        "lifecycle_journey": "标签历程",
        "lifecycle_axis": "版本（从旧到新）",
        "lifecycle_filter": "按领域筛选",
        "all_areas": "全部领域",
        "lifecycle_count": "共 {features} 项特性，跨 {releases} 个版本。",
        "lifecycle_shown": "显示 {shown} 项特性",
        "lifecycle_journeys": "标签有过变化的特性（{count}）",
        "lifecycle_one_label": "标签没有变过的特性（{count}）",
        "topic_intro": "{area}领域在各版本中的特性，最新版本在前（共 {releases} 个版本、{features} 项）。",
        "topic_empty": "暂无版本在这个领域标注特性。",
    },
    "en": {
        **BASE_UI["en"],
        "lifecycle_journey": "Label journey",
        "lifecycle_axis": "Releases, oldest to newest",
        "lifecycle_filter": "Filter by area",
        "all_areas": "All areas",
        "lifecycle_count": "{features} features across {releases} releases.",
        "lifecycle_shown": "Showing {shown} features",
        "lifecycle_journeys": "Features whose label changed ({count})",
        "lifecycle_one_label": "Features with one label so far ({count})",
        "topic_intro": "Features in the {area} area, release by release, newest first ({releases} releases, {features} features).",
        "topic_empty": "No release lists a feature in this area yet.",
    },
}


def journey_html(steps: list[tuple[str, str]], lang: str, link) -> str:
    """Prototype 2.5 → Beta 2.6 → …: one step per release where the label changed, as text (screen readers
    and paper read it; the arrows are CSS), each step linking to that release's section on the feature."""
    parts = [
        f'<a class="journey-step" href="{esc(link(version))}">{maturity_badge(label, lang)} <span class="journey-version">{esc(version)}</span></a>'
        for version, label in steps
    ]
    return '<span class="journey">' + " ".join(parts) + "</span>"


def _axis_labels(versions: list[str]) -> set[str]:
    """The releases the axis names: the first, every X.0 and the newest; the others are ticks."""
    return {versions[0], versions[-1]} | {v for v in versions if v.endswith(".0")}


def lifecycle_axis(versions: list[str], lang: str) -> str:
    """The shared release axis, oldest on the left, drawn once above the strips (hidden from screen readers:
    each strip's journey says the same in words)."""
    named = _axis_labels(versions)
    ticks = "".join(f'<span class="lifecycle-tick">{esc(v) if v in named else ""}</span>' for v in versions)
    return f'<div class="lifecycle-axis" aria-hidden="true"><span class="lifecycle-axis-title">{esc(UI[lang]["lifecycle_axis"])}</span><span class="lifecycle-ticks">{ticks}</span></div>'


def lifecycle_strip(row: dict, versions: list[str]) -> str:
    """One feature on the shared axis: a thin line from its first to its last mention, a block in its label's
    colour for each release whose post mentions it. Only mentions are drawn: no empty cells."""
    column = {v: i for i, v in enumerate(versions)}
    mentioned = sorted(column[v] for v in row["cells"])
    first, last = mentioned[0], mentioned[-1]
    parts = (
        [f'<rect class="lifecycle-span" x="{first + 0.5}" y="1.6" width="{last - first}" height="0.8"/>']
        if last > first
        else []
    )
    for version, label in sorted(row["cells"].items(), key=lambda item: column[item[0]]):
        x = column[version]
        parts.append(
            f'<rect class="maturity-{esc(label.lower())}" data-version="{esc(version)}" data-maturity="{esc(label)}" x="{x + 0.1:.1f}" y="0" width="0.8" height="4" fill="currentColor"/>'
        )
    return (
        f'<svg class="lifecycle-strip" viewBox="0 0 {len(versions)} 4" preserveAspectRatio="none" aria-hidden="true" focusable="false">'
        + "".join(parts)
        + "</svg>"
    )


def _section_link(href, pages: dict, feature_id: str):
    """version -> URL of the feature's section on that release's page."""
    return lambda version: href(pages[version], feature_id)


def _feature_item(row: dict, versions: list[str], link, lang: str) -> str:
    t = UI[lang]
    newest = max(row["cells"], key=version_key)
    return (
        f'<li class="lifecycle-feature" id="feature-{esc(row["id"])}" data-area="{esc(row["area"])}" data-feature="{esc(row["id"])}">'
        f'<p class="lifecycle-name"><a href="{esc(link(newest))}">{esc(row["name"])}</a> <span class="lifecycle-area">{esc(AREAS[row["area"]][lang])}</span></p>'
        f"{lifecycle_strip(row, versions)}"
        f'<p class="lifecycle-journey"><span class="visually-hidden">{esc(t["lifecycle_journey"])}{t["colon"]}</span>{journey_html(row["steps"], lang, link)}</p>'
        "</li>"
    )


def lifecycle(catalog: Catalog, lang: str, href) -> str:
    """Every feature with its label journey in words and drawn on a release axis shared by all features (in the
    manner of caniuse's support tables): no grid of mostly empty release columns, no sideways scrolling. The view
    opens on the journeys (features whose label changed across releases), then the features with one label so far;
    each group newest first. The area filter (views.js) is kept in the URL (?area=Compiler)."""
    t = UI[lang]
    rows = feature_history(catalog, lang)
    releases = catalog.releases  # newest first
    versions = [r.version for r in reversed(releases)]  # the axis runs oldest → newest
    pages = {r.version: r.pages[lang] for r in releases}
    areas = [a for a in AREAS if any(r["area"] == a for r in rows)]
    groups = {
        "journeys": [r for r in rows if len(r["steps"]) > 1],
        "one-label": [r for r in rows if len(r["steps"]) == 1],
    }
    out = [
        f'<p class="lifecycle-count">{esc(t["lifecycle_count"].format(features=len(rows), releases=len(releases)))} '
        f'<span id="lifecycle-shown" data-template="{esc(t["lifecycle_shown"])}"></span></p>',
        '<div class="lifecycle-filter">',
        f'<label for="lifecycle-area">{esc(t["lifecycle_filter"])}</label> ',
        '<select id="lifecycle-area" data-filter-target="lifecycle-list">',
        f'<option value="">{esc(t["all_areas"])}</option>',
    ]
    out += [f'<option value="{esc(area)}">{esc(AREAS[area][lang])}</option>' for area in areas]
    out += ["</select>", "</div>", '<div class="lifecycle" id="lifecycle-list">', lifecycle_axis(versions, lang)]
    for group, members in groups.items():
        if not members:
            continue
        title = t["lifecycle_journeys" if group == "journeys" else "lifecycle_one_label"].format(count=len(members))
        out.append(f'<h2 class="lifecycle-group-title" id="{group}" data-group-title="{group}">{esc(title)}</h2>')
        out.append(f'<ol class="lifecycle-features" data-group="{group}">')
        out += [_feature_item(row, versions, _section_link(href, pages, row["id"]), lang) for row in members]
        out.append("</ol>")
    out += ["</div>", ""]
    return "\n".join(out)


def topic(catalog: Catalog, area: str, lang: str, href) -> str:
    """Every release that lists a feature in `area`, newest first like every list on the site, with those features."""
    t = UI[lang]
    releases = [r for r in catalog.releases if any(f.area == area for f in r.pages[lang].features)]
    if not releases:
        return f'<p class="topic-empty">{esc(t["topic_empty"])}</p>\n'
    count = sum(1 for r in releases for f in r.pages[lang].features if f.area == area)
    out = [
        f'<p class="topic-intro">{esc(t["topic_intro"].format(area=AREAS[area][lang], releases=len(releases), features=count))}</p>',
        '<div class="timeline topic-timeline">',
    ]
    for release in releases:
        page = release.pages[lang]
        out += [
            f'<div class="timeline-entry" data-version="{esc(release.version)}" data-date="{page.date_iso}">',
            f'<h2 id="v{release.version.replace(".", "-")}"><a href="{esc(href(page))}">{esc(t["release"].format(version=release.version))}</a></h2>',
            f'<p class="timeline-date"><time datetime="{page.date_iso}">{page.date_iso}</time></p>',
            '<ul class="topic-features">',
        ]
        for feature in page.features:
            if feature.area == area:
                out.append(
                    f'<li data-feature="{esc(feature.id)}"><a href="{esc(href(page, feature.id))}">{esc(feature.name)}</a> '
                    f"{maturity_badge(feature.maturity, lang)}</li>"
                )
        out += ["</ul>", "</div>"]
    out += ["</div>", ""]
    return "\n".join(out)
